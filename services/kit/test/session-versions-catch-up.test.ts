/**
 * Issue 28: a process that has not yet read the user topic (just started: its memory of ended sessions
 * is empty; or Kafka unreadable) must not accept a session token. SessionVersions on the real broker
 * and the auth plugin in front of it: 503 until the ended sessions are read, then 401 — never 200.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SESSION_MESSAGES, SessionsRevoked, UserSuspended } from '@decor/contracts';
import type { Kafka, Producer } from 'kafkajs';
import {
  createKafka,
  createServiceApp,
  ensureTopics,
  SESSIONS_WAIT_LEFT_HEADER,
  SESSIONS_WAIT_MS,
  type ServiceApp,
  SessionVersions,
  silentLogger,
  toMessage,
} from '../src';
import { testEndpoints } from '../src/testing';
import { call, listen } from './http-helpers';

const run = `t${randomBytes(4).toString('hex')}`;
const topic = `${run}.user`;
const signedOut = `u-${randomUUID()}`;
const suspended = `u-${randomUUID()}`;
let kafka: Kafka;
let producer: Producer;
const opened: { app: ServiceApp; sessions: SessionVersions }[] = [];

const envelope = (type: string, userId: string, payload: object) => ({
  id: randomUUID(),
  type,
  version: 1,
  aggregateType: 'user' as const,
  aggregateId: userId,
  occurredAt: new Date().toISOString(),
  correlationId: randomUUID(),
  payload: { userId, at: new Date().toISOString(), ...payload },
});

/** A process's auth hooks over a fresh SessionVersions (not started): its memory is empty. */
async function processWith(opts: { kafka?: Kafka; lookbackMs?: number } = {}) {
  const sessions = new SessionVersions({
    kafka: opts.kafka ?? kafka,
    topic,
    logger: silentLogger,
    name: `${run}.test`,
    lookbackMs: opts.lookbackMs ?? 3_600_000,
    retryMs: 300,
  });
  const app = await createServiceApp({
    name: 'test',
    logLevel: 'silent',
    jwt: { secret: 'catch-up-secret', expiresIn: '12h', sessions },
  });
  app.get('/me', { preHandler: app.authenticate }, async (request) => ({ user: request.user }));
  app.get('/inventory', { preHandler: app.optionalAuth }, async () => ({ result: [] }));
  opened.push({ app, sessions });
  const url = await listen(app);
  const token = (id: string) =>
    app.signToken({ id, permissions: 'customer', email: `${id}@x.example` }, { sessionVersion: 1 });
  const get = (path: string, id?: string, headers: Record<string, string> = {}) =>
    call(url, path, id ? { headers: { authorization: `Bearer ${token(id)}`, ...headers } } : {});
  return { sessions, get };
}

beforeAll(async () => {
  kafka = createKafka({ clientId: `${run}-test`, brokers: testEndpoints().kafkaBrokers });
  await ensureTopics(kafka, [topic]);
  producer = kafka.producer();
  await producer.connect();
  // Ended sessions, among a few hundred other user events the reader must get through first.
  const other = Array.from({ length: 300 }, (_, i) => envelope('UserUpdated', `u-other-${i}`, {}));
  await producer.send({
    topic,
    messages: [
      ...other.slice(0, 150),
      envelope(SessionsRevoked.type, signedOut, { sessionVersion: 2, reason: 'signed-out' }),
      envelope(SessionsRevoked.type, suspended, { sessionVersion: 2, reason: 'suspended' }),
      envelope(UserSuspended.type, suspended, { email: 'x@y.example' }),
      ...other.slice(150),
    ].map(toMessage),
  });
});

afterAll(async () => {
  for (const { app, sessions } of opened) {
    await app.close();
    await sessions.stop();
  }
  await producer?.disconnect();
});

it('answers 503 to a token until the ended sessions are read, then 401: never 200', async () => {
  const p = await processWith();
  expect(p.sessions.caughtUp).toBe(false);
  // Not reading yet: a token waits (SESSIONS_WAIT_MS), then 503 — anonymous requests go on.
  const early = await p.get('/me', signedOut);
  expect(early.status).toBe(503);
  expect(early.body).toEqual({ message: SESSION_MESSAGES.unchecked });
  expect(early.headers.get('retry-after')).toBe('5');
  expect((await p.get('/inventory', signedOut)).status).toBe(503);
  expect((await p.get('/inventory')).status).toBe(200);
  expect((await p.get('/me')).status).toBe(401);

  // Reading starts; asked all along, the ended session is never accepted.
  const t0 = Date.now();
  void p.sessions.start();
  const answers: number[] = [];
  while (!p.sessions.caughtUp && Date.now() - t0 < 10_000)
    answers.push((await p.get('/me', signedOut)).status);
  const caughtUpMs = Date.now() - t0;
  expect(p.sessions.caughtUp).toBe(true);
  expect(answers.filter((s) => s !== 401 && s !== 503)).toEqual([]);
  const after = await p.get('/me', signedOut);
  expect([after.status, after.body]).toEqual([401, { message: SESSION_MESSAGES.ended }]);
  expect(after.headers.get('expiredtoken')).toBe('true');
  expect((await p.get('/me', suspended)).body).toEqual({ message: SESSION_MESSAGES.suspended });
  // Someone whose session did not end is let in.
  expect((await p.get('/me', `u-${randomUUID()}`)).status).toBe(200);
  // A quiet topic of a few hundred events is read in well under a second (joining included).
  expect(caughtUpMs).toBeLessThan(3_000);
  console.info(`session versions caught up on ${answers.length} asks after ${caughtUpMs} ms`);
});

it('a token asked for while reading is held until the read is done, then refused', async () => {
  const p = await processWith();
  void p.sessions.start();
  const answer = await p.get('/me', signedOut);
  expect([answer.status, answer.body]).toEqual([401, { message: SESSION_MESSAGES.ended }]);
});

it('with Kafka unreadable it never accepts a token; anonymous routes keep working', async () => {
  const away = createKafka({
    clientId: `${run}-away`,
    brokers: ['127.0.0.1:9'],
    config: { connectionTimeout: 300, retry: { retries: 0 } },
  });
  const p = await processWith({ kafka: away });
  expect(await p.sessions.start()).toBe(false);
  const answer = await p.get('/me', `u-${randomUUID()}`);
  expect([answer.status, answer.body]).toEqual([503, { message: SESSION_MESSAGES.unchecked }]);
  expect((await p.get('/inventory')).status).toBe(200);
  expect(p.sessions.caughtUp).toBe(false);
});

it('nothing in the look-back window: caught up as soon as the topic is joined', async () => {
  await new Promise((r) => setTimeout(r, 50));
  const p = await processWith({ lookbackMs: 10 });
  expect(await p.sessions.start()).toBe(true);
  expect(await p.sessions.whenCaughtUp(1_000)).toBe(true);
  // Its events are older than any token it could concern.
  expect((await p.get('/me', signedOut)).status).toBe(200);
});

it('a token the gateway already held waits only what the gateway left of the wait', async () => {
  const p = await processWith();
  // Every wait this process asks for, in ms (the reader is never started: each ends in a 503).
  const asked: number[] = [];
  const whenCaughtUp = p.sessions.whenCaughtUp.bind(p.sessions);
  p.sessions.whenCaughtUp = (ms: number) => {
    asked.push(ms);
    return whenCaughtUp(ms);
  };
  const held = (left?: string) =>
    p.get('/me', signedOut, left === undefined ? {} : { [SESSIONS_WAIT_LEFT_HEADER]: left });
  const t0 = Date.now();
  const none = await held('0');
  expect([none.status, none.body]).toEqual([503, { message: SESSION_MESSAGES.unchecked }]);
  expect(Date.now() - t0).toBeLessThan(SESSIONS_WAIT_MS);
  expect((await held('350')).status).toBe(503);
  // Absent, unreadable or more than the wait itself: the whole wait, never longer.
  expect((await held()).status).toBe(503);
  expect((await held('99999')).status).toBe(503);
  expect((await held('soon')).status).toBe(503);
  expect(asked).toEqual([0, 350, SESSIONS_WAIT_MS, SESSIONS_WAIT_MS, SESSIONS_WAIT_MS]);
});
