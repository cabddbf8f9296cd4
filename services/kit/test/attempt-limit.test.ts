/**
 * attemptLimit (http/rate-limit.ts) on the machine's Redis, over real HTTP: an attempt is taken before
 * it is made, so parallel attempts cannot outrun the limit; a success gives it back; Redis out of
 * reach refuses (503) rather than lets attempts through.
 */
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import {
  type AttemptLimit,
  attemptLimit,
  createServiceApp,
  LIMIT_UNCHECKED,
  registerRateLimitStore,
  type ServiceApp,
} from '../src/http';
import { freePort, RUN_ID, serviceEnv } from '../src/testing';
import { type Answer, call, listen } from './http-helpers';

const MAX = 3;
const apps: ServiceApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

/** `POST /try {key, ok}`: one attempt on the limit; `attempts()` says how many really ran. */
async function start(redisUrl: string) {
  const app = await createServiceApp({ name: 'attempt-limit-test', logLevel: 'silent' });
  apps.push(app);
  await registerRateLimitStore(app, { redisUrl, prefix: `${RUN_ID}-attempts` });
  const limit: AttemptLimit = attemptLimit(app, {
    name: 'test:attempts',
    max: MAX,
    windowMs: 60_000,
    message: (s) => `Wait ${s} s`,
  });
  let ran = 0;
  app.post(
    '/try',
    { schema: { body: Type.Object({ key: Type.String(), ok: Type.Boolean() }) } },
    async (request, reply) => {
      const { key, ok } = request.body;
      if (!(await limit.take(key, request, reply))) return reply;
      ran += 1;
      await new Promise((r) => setTimeout(r, 20)); // the check takes a while, as a password hash does
      if (ok) await limit.giveBack(key, request);
      return { ok };
    },
  );
  const base = await listen(app);
  const attempt = (key: string, ok: boolean) => call(base, '/try', { json: { key, ok } });
  return { attempt, attempts: () => ran };
}

const statuses = (answers: Answer[]) => answers.map((a) => a.status).sort();

it('lets at most `max` of many parallel failing attempts run; the rest 429 with Retry-After', async () => {
  const { attempt, attempts } = await start((await serviceEnv('kit')).REDIS_URL as string);
  const key = randomUUID();
  const answers = await Promise.all(Array.from({ length: 20 }, () => attempt(key, false)));
  expect(statuses(answers)).toEqual([...Array(MAX).fill(200), ...Array(20 - MAX).fill(429)]);
  expect(attempts()).toBe(MAX);
  for (const refused of answers.filter((a) => a.status === 429)) {
    const seconds = Number(refused.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({ message: `Wait ${seconds} s` });
  }
  // A success would not have counted, but none is let through to find out until the window ends.
  expect((await attempt(key, true)).status).toBe(429);
  expect(attempts()).toBe(MAX);
  // Another key has its own budget.
  expect((await attempt(randomUUID(), false)).status).toBe(200);
});

it('gives a successful attempt back', async () => {
  const { attempt } = await start((await serviceEnv('kit')).REDIS_URL as string);
  const key = randomUUID();
  for (let i = 0; i < MAX - 1; i++) expect((await attempt(key, false)).status).toBe(200);
  for (let i = 0; i < 5; i++) expect((await attempt(key, true)).status).toBe(200);
  expect((await attempt(key, false)).status).toBe(200);
  expect((await attempt(key, true)).status).toBe(429);
});

it('refuses with 503 when Redis is out of reach: no attempt runs unchecked', async () => {
  const { attempt, attempts } = await start(`redis://127.0.0.1:${await freePort()}`);
  const answer = await attempt(randomUUID(), false);
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('5');
  expect(answer.body).toEqual({ message: LIMIT_UNCHECKED });
  expect(attempts()).toBe(0);
}, 15_000);
