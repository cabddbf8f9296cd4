/** The rules of src/http/session-versions.ts without Kafka: which tokens a user's events refuse. */
import { SESSION_MESSAGES, SessionsRevoked, UserDeleted, UserEnabled, UserSuspended } from '@decor/contracts';
import type { Kafka } from 'kafkajs';
import { durationMs, SessionVersions, silentLogger } from '../src';

const versions = (lookbackMs = 1) =>
  new SessionVersions({ kafka: {} as Kafka, topic: 't.user', logger: silentLogger, name: 't', lookbackMs });

const event = (type: string, userId: string, at: string) => ({
  type,
  occurredAt: at,
  payload: { userId, email: 'x@y.example', at },
});
const revoked = (userId: string, sessionVersion: number, reason: string, at = S) => ({
  type: SessionsRevoked.type,
  occurredAt: at,
  payload: { userId, sessionVersion, reason, at },
});

const S = '2026-11-24T10:00:00.500Z';
const E = '2026-11-24T10:05:00.000Z';

it('refuses every token of a suspended user, whatever its version', () => {
  const r = versions();
  r.apply(revoked('u1', 1, 'suspended'));
  r.apply(event(UserSuspended.type, 'u1', S));
  for (const sv of [0, 1, 2, undefined]) expect(r.refusal('u1', sv)).toBe(SESSION_MESSAGES.suspended);
  expect(r.refusal('u2', 0)).toBeUndefined();
});

it('after Enable, refuses only tokens of the versions before the suspension', () => {
  const r = versions();
  r.apply(revoked('u1', 3, 'suspended'));
  r.apply(event(UserSuspended.type, 'u1', S));
  r.apply(event(UserEnabled.type, 'u1', E));
  expect(r.refusal('u1', 2)).toBe(SESSION_MESSAGES.suspended);
  expect(r.refusal('u1', undefined)).toBe(SESSION_MESSAGES.suspended);
  expect(r.refusal('u1', 3)).toBeUndefined();
});

it('ends the sessions below the version a password change, reset or sign-out set; never goes back', () => {
  const r = versions();
  r.apply(revoked('u1', 2, 'password-changed'));
  expect(r.refusal('u1', 1)).toBe(SESSION_MESSAGES.ended);
  expect(r.refusal('u1', 2)).toBeUndefined();
  r.apply(revoked('u1', 1, 'signed-out'));
  expect(r.refusal('u1', 1)).toBe(SESSION_MESSAGES.ended);
});

it('refuses a deleted user for good, Enable or not', () => {
  const r = versions();
  r.apply({
    type: UserDeleted.type,
    occurredAt: S,
    payload: { userId: 'u1', email: 'x', permissions: 'customer', at: S },
  });
  r.apply(event(UserEnabled.type, 'u1', E));
  expect(r.refusal('u1', 100)).toBe(SESSION_MESSAGES.deleted);
});

it('tells listeners whose sessions ended; ignores other events and malformed payloads', () => {
  const r = versions();
  const heard: string[] = [];
  r.onRevoked((id) => heard.push(id));
  r.apply(event('UserUpdated', 'u1', S));
  r.apply({ type: UserSuspended.type, occurredAt: S, payload: null });
  r.apply({ type: UserSuspended.type, occurredAt: S, payload: { userId: 42 } });
  expect(r.isEmpty).toBe(true);
  r.apply(event(UserSuspended.type, 'u1', S));
  r.apply(event(UserDeleted.type, 'u2', S));
  r.apply(revoked('u3', 1, 'signed-out'));
  expect(heard).toEqual(['u1', 'u2', 'u3']);
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

it('forgets users whose last event is older than a token lives', () => {
  const r = versions(3_600_000);
  r.apply(event(UserSuspended.type, 'old', '2026-11-24T08:00:00.000Z'));
  r.apply(event(UserDeleted.type, 'recent', '2026-11-24T09:30:00.000Z'));
  r.prune(Date.parse('2026-11-24T10:00:00.000Z'));
  expect(r.refusal('old', undefined)).toBeUndefined();
  expect(r.refusal('recent', undefined)).toBe(SESSION_MESSAGES.deleted);
});
