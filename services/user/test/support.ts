import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@decor/contracts';
import { type StartedService, startService, topicFor } from '@decor/kit';
import { type Answer, call, RUN_ID, serviceEnv, topicEvents } from '@decor/kit/testing';

export { type Answer, call };

import type { Kafka } from 'kafkajs';
import { createConnection } from 'mongoose';
import { USER_TOPICS, userService } from '../src/app';
import { loadUserConfig } from '../src/config';
import type { UserContext } from '../src/context';
import { hashPassword } from '../src/domain/password';
import type { Permission } from '../src/domain/user';
import { newUserWithEvent } from '../src/store/user-model';

export type UserServiceUnderTest = StartedService<UserContext>;

/** A user service of this test file, in-process, on its own database and topics (demo users seeded). */
export async function startUserService(extra: Record<string, string> = {}): Promise<UserServiceUnderTest> {
  return startService(userService(loadUserConfig(await serviceEnv('user', extra))), { exit: () => {} });
}

/**
 * Stops the service, then drops its database on a connection of the test's own: nothing of the
 * service's is left touching the data, and the drop is not held to the service's 10 s operation limit
 * (a full run timed out dropping the 11,000 documents of users-at-scale).
 */
export async function stopAndClean(service: UserServiceUnderTest | undefined): Promise<void> {
  if (!service) return;
  const { MONGO_URL, MONGO_DB } = service.ctx.config;
  await service.shutdown('test over');
  const connection = await createConnection(MONGO_URL, { dbName: MONGO_DB }).asPromise();
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}

export const signIn = (base: string, email: string, password: string) =>
  call(base, '/auth/user', { method: 'POST', json: { email, password } });

/** A fresh account (stored with its UserCreated event, as the service creates users). */
export async function createUser(
  service: UserServiceUnderTest,
  permissions: Permission,
  password: string,
): Promise<{ id: string; email: string }> {
  const email = `${permissions}-${randomUUID().slice(0, 8)}@decor.example`;
  const user = newUserWithEvent(
    service.ctx.users,
    {
      firstName: 'Test',
      lastName: permissions,
      email,
      permissions,
      passwordHash: await hashPassword(password),
    },
    randomUUID(),
  );
  await user.save();
  service.ctx.eventsWritten();
  return { id: user._id.toString(), email };
}

/**
 * The user service's events, read from the start until `done` (see `topicEvents`): its `user` topic
 * and its e-mail requests' `user-email` one, interleaved (an event's `aggregateType` says which).
 */
export function userEvents(
  kafka: Kafka,
  done: (events: EventEnvelope[]) => boolean,
  { timeoutMs = 15_000 } = {},
): Promise<EventEnvelope[]> {
  const topics = USER_TOPICS.map((aggregate) => topicFor(RUN_ID, aggregate));
  return topicEvents(kafka, topics, done, { timeoutMs });
}
