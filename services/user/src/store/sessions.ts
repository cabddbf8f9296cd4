import { type EventEnvelope, SessionsRevoked } from '@decor/contracts';
import { newEvent } from '@decor/kit';
import type { User } from './user-model';

export type SessionEndReason = 'password-changed' | 'password-reset' | 'signed-out' | 'suspended' | 'deleted';

/**
 * Ends every session of the user so far: the next session version (a millisecond time, above the
 * current one) to `$set` with the SessionsRevoked event to push in the same write. The gateway and
 * every service learn it from the event (the kit's SessionVersions) and refuse older tokens.
 */
export function endSessions(
  user: Pick<User, '_id' | 'sessionVersion'>,
  reason: SessionEndReason,
  correlationId: string,
  now = new Date(),
): { sessionVersion: number; event: EventEnvelope } {
  const id = user._id.toString();
  const sessionVersion = Math.max(now.getTime(), (user.sessionVersion ?? 0) + 1);
  const event = newEvent(SessionsRevoked, {
    aggregateId: id,
    correlationId,
    payload: { userId: id, sessionVersion, reason, at: now.toISOString() },
  });
  return { sessionVersion, event };
}
