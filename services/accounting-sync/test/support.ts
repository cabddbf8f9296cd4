import { randomBytes } from 'node:crypto';
import type { EventContract, EventEnvelope } from '@decor/contracts';
import { newEvent, publishEnvelopes, type StartedService, startService } from '@decor/kit';
import { type Answer, call, RUN_ID, serviceEnv } from '@decor/kit/testing';
import {
  consentRedirect as qboConsentRedirect,
  emulatorControl as qboEmulatorControl,
} from '@decor/qbo-emulator';
import { qboEnv as emulatorEnv, testEndpoints } from '@decor/stack';
import type { Static } from '@sinclair/typebox';
import { accountingSyncService } from '../src/app';
import { loadAccountingSyncConfig } from '../src/config';
import type { AccountingSyncContext } from '../src/context';

export type { ImportCompany, ImportCustomer } from '../src/domain/import-listing';
export { QBO_TEXTS } from '../src/routes/texts';

export type Sync = StartedService<AccountingSyncContext>;
export type { Answer };
export const request = call;
export const newId = () => randomBytes(12).toString('hex');

/** The emulator the jest global setup started, and the env that points the service at it. */
export const emulator = () => testEndpoints().qbo;

export function qboEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...emulatorEnv(testEndpoints(), {}),
    // Tests share the machine with other files: a generous limit unless a test sets its own.
    QBO_RATE_LIMIT_PER_MINUTE: '30000',
    ...extra,
  };
}

export async function startSync(extra: Record<string, string> = {}): Promise<Sync> {
  const env = await serviceEnv('accounting-sync', qboEnv(extra));
  return startService(accountingSyncService(loadAccountingSyncConfig(env)), { exit: () => {} });
}

export async function stopAndClean(...services: Array<Sync | undefined>): Promise<void> {
  const running = services.filter((s): s is Sync => s !== undefined);
  if (running[0]) {
    await running[0].ctx.syncQueue.obliterate({ force: true }).catch(() => {});
    await running[0].ctx.connection.dropDatabase();
  }
  // All at once: each waits out its consumers' in-flight Kafka fetches (seconds) otherwise.
  await Promise.all(running.map((s) => s.shutdown('test over')));
}

export function staffToken(
  service: Sync,
  id = newId(),
  permissions: 'admin' | 'superadmin' = 'admin',
): string {
  return service.app.signToken({ id, permissions, email: `${permissions}-${id}@decor.example` });
}

/** JSON to and from the emulator's control API and records. */
export const emulatorCall = <T = unknown>(path: string, init?: { method?: string; json?: unknown }) =>
  qboEmulatorControl(emulator().url).call<T>(path, init);

/** A fresh, empty QuickBooks company of this test file (faults and limits never cross files). */
export async function newRealm(name = `Test ${RUN_ID}`): Promise<string> {
  return (await qboEmulatorControl(emulator().url).newCompany(name)).realmId;
}

// biome-ignore lint/suspicious/noExplicitAny: QuickBooks records are open JSON
export type QboRecord = Record<string, any>;

export const qboRecords = (
  realmId: string,
  entity: 'Customer' | 'Item' | 'Estimate' | 'Invoice' | 'Payment' | 'RefundReceipt',
) => emulatorCall<QboRecord[]>(`/__emulator/realms/${realmId}/records/${entity}`);

export interface EmulatorStats {
  requests: number;
  throttled: number;
  faulted: number;
  replays: number;
  hung: number;
  grants: { authorization_code: number; refresh_token: number };
  documents: Record<string, number>;
  requestsPerMinutePeak: number;
}
export const qboStats = (realmId: string) =>
  emulatorCall<EmulatorStats>(`/__emulator/realms/${realmId}/stats`);

/** A person's click on Connect on the consent page: QuickBooks' redirect back to /callback. */
export const consent = qboConsentRedirect;

/** Connect → consent → /callback's GET /auth/accessToken, as staff member `token`. */
export async function connect(service: Sync, realmId: string, token = staffToken(service)): Promise<Answer> {
  const start = await request(service.url, '/qbo/connect', { token });
  if (start.status !== 200) throw new Error(`/qbo/connect answered ${start.status}`);
  const back = await consent(start.body.result.url, realmId);
  return request(service.url, `/auth/accessToken${back.search}`, { token });
}

/** Publishes one event onto this run's topic of its aggregate, as the owning service's relay would. */
export async function publish<C extends EventContract>(
  service: Sync,
  contract: C,
  aggregateId: string,
  payload: Static<C['payload']>,
): Promise<EventEnvelope<Static<C['payload']>>> {
  const [event] = await publishAll(service, contract, [[aggregateId, payload]]);
  return event as EventEnvelope<Static<C['payload']>>;
}

/** `publish` for many aggregates in one acked batch (one send, not one per event). */
export async function publishAll<C extends EventContract>(
  service: Sync,
  contract: C,
  items: [aggregateId: string, payload: Static<C['payload']>][],
): Promise<EventEnvelope<Static<C['payload']>>[]> {
  const events = items.map(([aggregateId, payload]) =>
    newEvent(contract, { aggregateId, payload, correlationId: `test-${newId()}` }),
  );
  await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, events);
  return events;
}
