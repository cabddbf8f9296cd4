/** The rules of src/session-revocation.ts without Kafka: which tokens a user's events refuse. */
import { UserDeleted, UserEnabled, UserSuspended } from '@decor/contracts';
import { silentLogger } from '@decor/kit';
import type { Kafka } from 'kafkajs';
import { durationMs, REVOKED_MESSAGES, SessionRevocations } from '../src/session-revocation';

const revocations = () =>
  new SessionRevocations({ kafka: {} as Kafka, topic: 't.user', logger: silentLogger, lookbackMs: 1 });

const event = (type: string, userId: string, at: string) => ({
  type,
  occurredAt: at,
  payload: { userId, email: 'x@y.example', at },
});
const sec = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const S = '2026-11-24T10:00:00.500Z';
const E = '2026-11-24T10:05:00.000Z';

it('refuses every token of a suspended user, whatever its age', () => {
  const r = revocations();
  expect(r.isEmpty).toBe(true);
  r.apply(event(UserSuspended.type, 'u1', S));
  expect(r.isEmpty).toBe(false);
  for (const iat of [sec(S) - 60, sec(S), sec(S) + 60, undefined])
    expect(r.refusal('u1', iat)).toBe(REVOKED_MESSAGES.suspended);
  expect(r.refusal('u2', sec(S))).toBeUndefined();
});

it('after Enable, refuses only tokens issued up to the suspension (its second included)', () => {
  const r = revocations();
  r.apply(event(UserSuspended.type, 'u1', S));
  r.apply(event(UserEnabled.type, 'u1', E));
  expect(r.refusal('u1', sec(S) - 1)).toBe(REVOKED_MESSAGES.suspended);
  expect(r.refusal('u1', sec(S))).toBe(REVOKED_MESSAGES.suspended);
  expect(r.refusal('u1', sec(E))).toBeUndefined();
  // A second suspension moves the line.
  const S2 = '2026-11-24T11:00:00.000Z';
  r.apply(event(UserSuspended.type, 'u1', S2));
  r.apply(event(UserEnabled.type, 'u1', '2026-11-24T11:01:00.000Z'));
  expect(r.refusal('u1', sec(E))).toBe(REVOKED_MESSAGES.suspended);
});

it('refuses a deleted user for good, Enable or not; Enable of an unknown user changes nothing', () => {
  const r = revocations();
  r.apply({
    ...event(UserDeleted.type, 'u1', S),
    payload: { userId: 'u1', email: 'x', permissions: 'customer', at: S },
  });
  r.apply(event(UserEnabled.type, 'u1', E));
  expect(r.refusal('u1', sec(E) + 100)).toBe(REVOKED_MESSAGES.deleted);
  r.apply(event(UserEnabled.type, 'u9', E));
  expect(r.isEmpty).toBe(false);
  expect(r.refusal('u9', sec(E))).toBeUndefined();
});

it('tells listeners whose sessions ended; ignores other events and malformed payloads', () => {
  const r = revocations();
  const heard: string[] = [];
  r.onRevoked((id) => heard.push(id));
  r.apply(event('UserUpdated', 'u1', S));
  r.apply({ type: UserSuspended.type, occurredAt: S, payload: null });
  r.apply({ type: UserSuspended.type, occurredAt: S, payload: { userId: 42 } });
  expect(r.isEmpty).toBe(true);
  r.apply(event(UserSuspended.type, 'u1', S));
  r.apply(event(UserDeleted.type, 'u2', S));
  expect(heard).toEqual(['u1', 'u2']);
});

it.each([
  ['12h', 12 * 3_600_000],
  ['30m', 1_800_000],
  ['3600', 3_600_000],
  ['2d', 172_800_000],
  ['500ms', 500],
  ['soon', undefined],
])('reads the token lifetime %s', (text, ms) => {
  expect(durationMs(text)).toBe(ms);
});

it('forgets users refused longer ago than a token lives', () => {
  const r = new SessionRevocations({
    kafka: {} as Kafka,
    topic: 't.user',
    logger: silentLogger,
    lookbackMs: 3_600_000,
  });
  r.apply(event(UserSuspended.type, 'old', '2026-11-24T08:00:00.000Z'));
  r.apply(event(UserDeleted.type, 'recent', '2026-11-24T09:30:00.000Z'));
  r.prune(Date.parse('2026-11-24T10:00:00.000Z'));
  expect(r.refusal('old', undefined)).toBeUndefined();
  expect(r.refusal('recent', undefined)).toBe(REVOKED_MESSAGES.deleted);
});
