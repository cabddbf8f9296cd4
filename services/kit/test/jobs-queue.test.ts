import { randomBytes, randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import pino from 'pino';
import {
  createQueue,
  createRedis,
  createWorker,
  enqueueOnce,
  type JobWorker,
  jobIdFor,
  listFailedJobs,
  PermanentJobError,
  pingRedis,
  replayFailedJob,
} from '../src/jobs';
import { testEndpoints } from '../src/testing';

const prefix = `t${randomBytes(4).toString('hex')}`;
let redis: Redis;
const queues: Queue[] = [];
const workers: JobWorker[] = [];

beforeAll(() => {
  redis = createRedis(testEndpoints().redisUrl);
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all(queues.map((q) => q.obliterate({ force: true }).then(() => q.close())));
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

function queueWith(name: string, backoffMs: number, attempts = 6): Queue {
  const q = createQueue(name, {
    connection: redis,
    prefix,
    defaultJobOptions: { attempts, backoff: { type: 'exponential', delay: backoffMs, jitter: 0.5 } },
  });
  queues.push(q);
  return q;
}

function workerFor(name: string, processor: (job: Job) => Promise<unknown>): JobWorker {
  const w = createWorker(name, processor, { connection: redis, prefix });
  workers.push(w);
  return w;
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('a job that fails twice then succeeds is retried with growing, jittered backoff', async () => {
  const q = queueWith('flaky', 300);
  const startedAt: number[] = [];
  workerFor('flaky', async () => {
    startedAt.push(Date.now());
    if (startedAt.length <= 2) throw new Error(`SMTP 421 try ${startedAt.length}`);
    return 'sent';
  });
  const id = await enqueueOnce(q, 'send', { to: 'a@b.c' }, { jobId: `flaky:${randomUUID()}` });

  await waitFor(async () => (await q.getJob(id))?.finishedOn !== undefined);
  const job = await q.getJob(id);
  expect(await job?.getState()).toBe('completed');
  expect(job?.returnvalue).toBe('sent');
  expect(startedAt).toHaveLength(3);
  const gap1 = (startedAt[1] ?? 0) - (startedAt[0] ?? 0);
  const gap2 = (startedAt[2] ?? 0) - (startedAt[1] ?? 0);
  // Exponential with 50 % jitter: the n-th wait is drawn from [½·300·2ⁿ⁻¹, 300·2ⁿ⁻¹) ms, so the
  // window doubles (first [150, 300), second [300, 600)); BullMQ's scheduling adds to that, 250 ms and
  // more on a loaded CI machine (a second wait of over 850 ms there): the upper bounds only say the
  // waits are not another backoff's, the lower ones that they grow.
  const slack = 1_000;
  expect(gap1).toBeGreaterThanOrEqual(140);
  expect(gap1).toBeLessThan(300 + slack);
  expect(gap2).toBeGreaterThanOrEqual(290);
  expect(gap2).toBeLessThan(600 + slack);
});

test('a job that always fails ends in the failed set with its error after the bounded attempts', async () => {
  const q = queueWith('doomed', 20, 3);
  let calls = 0;
  workerFor('doomed', async () => {
    calls += 1;
    throw new Error('mailbox unavailable');
  });
  const id = await enqueueOnce(q, 'send', { n: 1 }, { jobId: jobIdFor('doomed', randomUUID()) });

  await waitFor(async () => (await q.getJob(id).then((j) => j?.getState())) === 'failed');
  await new Promise((r) => setTimeout(r, 300)); // would a 4th attempt come?
  expect(calls).toBe(3);
  const failed = await listFailedJobs(q);
  expect(failed).toEqual([
    expect.objectContaining({
      id,
      name: 'send',
      data: { n: 1 },
      failedReason: 'mailbox unavailable',
      attemptsMade: 3,
    }),
  ]);
  expect(failed[0]?.finishedOn).toEqual(expect.any(Number));
});

test('a PermanentJobError is not retried, and replayFailedJob runs the job again', async () => {
  const q = queueWith('permanent', 20);
  let calls = 0;
  workerFor('permanent', async () => {
    calls += 1;
    if (calls === 1) throw new PermanentJobError('QuickBooks 400: customer has no e-mail');
    return 'ok';
  });
  const id = await enqueueOnce(q, 'sync', { orderId: 'o1' }, { jobId: `sync:${randomUUID()}` });

  await waitFor(async () => (await q.getJob(id).then((j) => j?.getState())) === 'failed');
  await new Promise((r) => setTimeout(r, 200));
  expect(calls).toBe(1);
  const [failed] = await listFailedJobs(q);
  expect(failed).toMatchObject({
    id,
    attemptsMade: 1,
    failedReason: 'QuickBooks 400: customer has no e-mail',
  });

  await replayFailedJob(q, id);
  await waitFor(async () => (await q.getJob(id).then((j) => j?.getState())) === 'completed');
  expect(calls).toBe(2);
  expect(await listFailedJobs(q)).toEqual([]);
  await expect(replayFailedJob(q, id)).rejects.toThrow(/completed, not failed/);
});

test('enqueueOnce with the same cause twice makes one job, also after it completed', async () => {
  const q = queueWith('once', 20);
  let calls = 0;
  const worker = workerFor('once', async () => {
    calls += 1;
  });
  const eventId = randomUUID();
  const cause = `email:PasswordResetRequested:${eventId}`;
  const [a, b] = await Promise.all([
    enqueueOnce(q, 'reset-mail', { to: 'x@y.z' }, { jobId: cause }),
    enqueueOnce(q, 'reset-mail', { to: 'x@y.z' }, { jobId: cause }),
  ]);
  expect(a).toBe(`email.PasswordResetRequested.${eventId}`);
  expect(b).toBe(a);
  await waitFor(async () => (await q.getJob(a).then((j) => j?.getState())) === 'completed');
  expect(await enqueueOnce(q, 'reset-mail', { to: 'x@y.z' }, { jobId: cause })).toBe(a);
  await new Promise((r) => setTimeout(r, 200));
  expect(calls).toBe(1);
  const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
  expect(Object.values(counts).reduce((s, n) => s + n, 0)).toBe(1);
  expect(worker.isHealthy()).toBe(true);
});

test('enqueueOnce calls of one turn go to Redis as one addBulk; a job that cannot be added fails alone', async () => {
  const q = queueWith('bulk', 20);
  const bulk = jest.spyOn(q, 'addBulk');
  const causes = Array.from({ length: 5 }, () => `bulk.${randomUUID()}`);
  const [first, ...rest] = await Promise.all(
    causes.map((jobId) => enqueueOnce(q, 'send', { jobId }, { jobId })),
  );
  expect([first, ...rest]).toEqual(causes);
  expect(bulk).toHaveBeenCalledTimes(1);
  for (const id of causes) expect((await q.getJob(id))?.data).toEqual({ jobId: id });

  // A float priority is refused by BullMQ: the bulk fails, the others are then added one by one.
  const more = Array.from({ length: 3 }, () => `bulk.${randomUUID()}`);
  const settled = await Promise.allSettled([
    ...more.map((jobId) => enqueueOnce(q, 'send', { jobId }, { jobId })),
    enqueueOnce(q, 'send', {}, { jobId: `bad.${randomUUID()}`, priority: 1.5 }),
  ]);
  expect(settled.slice(0, 3)).toEqual(more.map((value) => ({ status: 'fulfilled', value })));
  expect(settled[3]).toMatchObject({
    status: 'rejected',
    reason: { message: 'Priority should not be float' },
  });
  for (const id of more) expect(await q.getJob(id)).toBeDefined();
  bulk.mockRestore();
});

test('health: worker closes gracefully; Redis ping reports up and down', async () => {
  let finished = false;
  const q = queueWith('graceful', 20);
  const w = workerFor('graceful', async () => {
    await new Promise((r) => setTimeout(r, 300));
    finished = true;
  });
  const id = await enqueueOnce(q, 'slow', {}, { jobId: `slow-${randomUUID()}` });
  await waitFor(async () => (await q.getJob(id).then((j) => j?.getState())) === 'active');
  await w.close(); // waits for the active job
  expect(finished).toBe(true);
  expect(w.isHealthy()).toBe(false);
  expect(await q.getJob(id).then((j) => j?.getState())).toBe('completed');

  expect(await pingRedis(redis)).toBe(true);
  const nowhere = createRedis('redis://127.0.0.1:1', { lazyConnect: true, retryStrategy: () => null });
  expect(await pingRedis(nowhere, 200)).toBe(false);
  nowhere.disconnect();
});

test('jobIdFor never yields an id BullMQ refuses', () => {
  expect(jobIdFor('a:b', 'c')).toBe('a.b.c');
  expect(jobIdFor(42)).toBe('job.42');
});

test("a queue's Redis errors go to the service's log, not to stderr: a refused connection at debug, others as warnings", async () => {
  // A port nobody listens on: the connection's attempts fail with ECONNREFUSED, and the Queue re-emits them.
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const { port } = closed.address() as AddressInfo;
  await new Promise((r) => closed.close(r));
  const lines: { level: number; msg: string; queue?: string; err?: { message: string } }[] = [];
  const logger = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  const stderr = jest.spyOn(console, 'error').mockImplementation(() => {});
  const unreachable = createRedis(`redis://127.0.0.1:${port}`, { purpose: 'producer' });
  unreachable.on('error', () => {}); // the service's own connection listener (service.ts) logs it at debug
  const q = createQueue('unreachable', { connection: unreachable, prefix, logger });
  try {
    await waitFor(() => lines.length > 0, 10_000);
    expect(lines[0]).toMatchObject({
      level: 20,
      msg: 'job queue: redis connection error',
      queue: 'unreachable',
    });
    expect(lines[0]?.err?.message).toMatch(/ECONNREFUSED/);
    // Any other error the connection reports (ioredis's own words for a command past its timeout).
    unreachable.emit('error', new Error('Command timed out'));
    expect(lines.at(-1)).toMatchObject({ level: 40, msg: 'job queue: redis error', queue: 'unreachable' });
    expect(lines.at(-1)?.err?.message).toBe('Command timed out');
    expect(stderr).not.toHaveBeenCalled();
  } finally {
    stderr.mockRestore();
    await q.close().catch(() => {});
    unreachable.disconnect();
  }
});
