import { randomUUID } from 'node:crypto';
import { defineEvent, type EventEnvelope } from '@decor/contracts';
import { Type } from '@sinclair/typebox';
import type { Queue } from 'bullmq';
import {
  type BaseContext,
  type CommonConfig,
  commonConfigSchema,
  createQueue,
  createRedis,
  createWorker,
  eventHandler,
  loadConfig,
  PermanentJobError,
  publishEnvelopes,
  type RunningService,
  registerQueueMetrics,
  type ServiceDefinition,
  type StartedService,
  startService,
  startWorkers,
} from '../src';
import { deleteRunKeys, eventually, RUN_ID, serviceEnv } from '../src/testing';

/** One sample of the Prometheus text format: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] as string] = l[2] as string;
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined if none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

async function scrape(base: string): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, samples: parse(text) };
}

const Pinged = defineEvent('MetricsProbePinged', 1, 'order', Type.Object({ n: Type.Integer() }));
const SERVICE = 'metrics-probe';
const GROUP = `${RUN_ID}.${SERVICE}.pings`;
const TOPIC = `${RUN_ID}.order`;
const SERVICE_QUEUE = 'probe-jobs';
const WORKER_QUEUE = 'probe-work';

interface ProbeContext extends BaseContext {
  jobs: Queue;
}

// The first ping's handler waits here, so the lag of the events behind it can be seen.
let release: () => void = () => {};
const gate = new Promise<void>((resolve) => {
  release = resolve;
});
const handled: number[] = [];

function probeService(config: CommonConfig): ServiceDefinition<CommonConfig, ProbeContext> {
  return {
    name: SERVICE,
    config,
    build: (base) => {
      const jobs = createQueue(SERVICE_QUEUE, { connection: base.redis, prefix: config.REDIS_PREFIX });
      registerQueueMetrics(base.metrics, [jobs]);
      return { ...base, jobs };
    },
    publishes: ['order'],
    consumers: () => [
      {
        name: 'pings',
        topics: ['order'],
        handlers: {
          ...eventHandler(Pinged, async (e) => {
            if (e.payload.n === 1) await gate;
            handled.push(e.payload.n);
          }),
        },
      },
    ],
    routes: async (app) => {
      app.get('/things/:id', async (request) => ({ result: (request.params as { id: string }).id }));
    },
    closers: (ctx) => [{ name: 'probe queue', close: () => ctx.jobs.close() }],
  };
}

function ping(n: number | string, type: string = Pinged.type): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    aggregateType: 'order',
    aggregateId: 'probe-1', // one key: one partition, in order
    occurredAt: new Date().toISOString(),
    correlationId: randomUUID(),
    payload: { n },
  };
}

let service: StartedService<ProbeContext>;
let worker: RunningService;

beforeAll(async () => {
  service = await startService(probeService(loadConfig(commonConfigSchema, await serviceEnv(SERVICE))), {
    exit: () => {},
  });
  const workerConfig = loadConfig(commonConfigSchema, await serviceEnv('metrics-probe-worker'));
  worker = await startWorkers(
    {
      name: 'metrics-probe-worker',
      config: workerConfig,
      workers: ({ redis }) => [
        createWorker(
          WORKER_QUEUE,
          async (job) => {
            throw new PermanentJobError(`job ${job.id} cannot succeed`);
          },
          { connection: redis, prefix: workerConfig.REDIS_PREFIX },
        ),
      ],
    },
    { exit: () => {} },
  );
});

afterAll(async () => {
  release();
  await worker?.shutdown('test over');
  await service?.shutdown('test over');
  const redis = createRedis(service.ctx.config.REDIS_URL);
  await deleteRunKeys(redis);
  await redis.quit();
});

describe('GET /metrics of a service process', () => {
  it('has the default process metrics, labelled with the service', async () => {
    const { samples } = await scrape(service.url);
    expect(value(samples, 'process_cpu_user_seconds_total', { service: SERVICE })).toBeGreaterThan(0);
    expect(value(samples, 'nodejs_heap_size_used_bytes', { service: SERVICE })).toBeGreaterThan(0);
  });

  it('times requests by route pattern, never the raw URL; probes and the scrape itself are not counted', async () => {
    for (const id of ['a1b2c3', 'd4e5f6', 'a1b2c3'])
      expect((await fetch(`${service.url}/things/${id}`)).status).toBe(200);
    expect((await fetch(`${service.url}/no/such/path/9f8e7d`)).status).toBe(404);
    await fetch(`${service.url}/healthz`);
    await fetch(`${service.url}/readyz`);
    await scrape(service.url);

    const { text, samples } = await scrape(service.url);
    const thing = { method: 'GET', route: '/things/:id', status_code: '200', service: SERVICE };
    expect(value(samples, 'http_request_duration_seconds_count', thing)).toBe(3);
    expect(value(samples, 'http_request_duration_seconds_bucket', { ...thing, le: '+Inf' })).toBe(3);
    expect(value(samples, 'http_request_duration_seconds_sum', thing)).toBeGreaterThan(0);
    expect(
      value(samples, 'http_request_duration_seconds_count', { route: '__unmatched', status_code: '404' }),
    ).toBe(1);
    for (const raw of ['a1b2c3', 'd4e5f6', '9f8e7d']) expect(text).not.toContain(raw);
    const routes = new Set(
      samples.filter((s) => s.name === 'http_request_duration_seconds_count').map((s) => s.labels.route),
    );
    expect([...routes].sort()).toEqual(['/things/:id', '__unmatched']);
  });

  it('counts handled events by type and outcome, and shows the lag of the events not handled yet', async () => {
    // Four pings in one produce request: the consumer fetches them together and holds on the first.
    await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, [ping(1), ping(2), ping(3), ping(4)]);
    const lagged = await eventually(
      async () => {
        const lags = (await scrape(service.url)).samples.filter(
          (s) => s.name === 'kafka_consumer_lag' && s.labels.group === GROUP && s.value > 0,
        );
        return lags.length > 0 ? lags : undefined;
      },
      20_000,
      'a positive lag while the first event is held',
    );
    expect(lagged).toHaveLength(1);
    expect(lagged[0]?.labels).toMatchObject({ topic: TOPIC, service: SERVICE });
    expect(lagged[0]?.value).toBeGreaterThanOrEqual(1);
    expect(lagged[0]?.value).toBeLessThanOrEqual(4);
    release();

    // An event without a handler (skipped) and one whose payload breaks the contract (dead-lettered).
    await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, [
      ping(5, 'MetricsProbeUnknown'),
      ping('not a number'),
    ]);
    const handledOf = (samples: Sample[], type: string, outcome: string) =>
      value(samples, 'kafka_events_handled_total', { group: GROUP, type, outcome, service: SERVICE });
    const partition = lagged[0]?.labels.partition as string;
    const lagOf = (samples: Sample[]) =>
      value(samples, 'kafka_consumer_lag', { group: GROUP, topic: TOPIC, partition });
    // An event counts as handled at once, and leaves the lag once its batch is remembered (a write after).
    const samples = await eventually(
      async () => {
        const s = (await scrape(service.url)).samples;
        return handledOf(s, Pinged.type, 'dead-lettered') === 1 && lagOf(s) === 0 ? s : undefined;
      },
      30_000,
      'the dead-lettered event counted and its batch remembered (no lag)',
    );
    expect(handled).toEqual([1, 2, 3, 4]);
    expect(handledOf(samples, Pinged.type, 'applied')).toBe(4);
    expect(handledOf(samples, 'MetricsProbeUnknown', 'skipped')).toBe(1);
  });

  it('reports the job counts of the queues it registered, read when scraped', async () => {
    const before = (await scrape(service.url)).samples;
    for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed', 'paused']) {
      expect(value(before, 'bullmq_jobs', { queue: SERVICE_QUEUE, state, service: SERVICE })).toBe(0);
    }
    // Nobody works this queue: delayed jobs stay delayed, others wait.
    await service.ctx.jobs.add('later', {}, { delay: 60_000 });
    await service.ctx.jobs.add('later', {}, { delay: 60_000 });
    await service.ctx.jobs.add('now', {});
    const after = (await scrape(service.url)).samples;
    expect(value(after, 'bullmq_jobs', { queue: SERVICE_QUEUE, state: 'delayed' })).toBe(2);
    expect(value(after, 'bullmq_jobs', { queue: SERVICE_QUEUE, state: 'waiting' })).toBe(1);

    await service.ctx.jobs.pause();
    const paused = (await scrape(service.url)).samples;
    expect(value(paused, 'bullmq_jobs', { queue: SERVICE_QUEUE, state: 'paused' })).toBe(1);
    expect(value(paused, 'bullmq_jobs', { queue: SERVICE_QUEUE, state: 'waiting' })).toBe(0);
  });
});

describe('GET /metrics of a worker process', () => {
  it('reports the job counts of the queues its workers take jobs from, under its own service label', async () => {
    const queue = createQueue(WORKER_QUEUE, {
      connection: service.ctx.redis,
      prefix: service.ctx.config.REDIS_PREFIX,
    });
    try {
      await queue.add('doomed', {}, { jobId: 'doomed-1' });
      await queue.add('doomed', {}, { jobId: 'doomed-2' });
      await queue.add('later', {}, { delay: 60_000 });
      const samples = await eventually(
        async () => {
          const s = (await scrape(worker.url)).samples;
          return value(s, 'bullmq_jobs', { queue: WORKER_QUEUE, state: 'failed' }) === 2 ? s : undefined;
        },
        15_000,
        'two failed jobs in the worker metrics',
      );
      expect(value(samples, 'bullmq_jobs', { queue: WORKER_QUEUE, state: 'delayed' })).toBe(1);
      expect(value(samples, 'bullmq_jobs', { queue: WORKER_QUEUE, state: 'failed' })).toBe(2);
      // Its own registry: none of the service's series, every series labelled with the worker.
      expect(samples.every((s) => s.labels.service === 'metrics-probe-worker')).toBe(true);
      expect(value(samples, 'bullmq_jobs', { queue: SERVICE_QUEUE, state: 'delayed' })).toBeUndefined();
      expect(samples.some((s) => s.name.startsWith('kafka_'))).toBe(false);
    } finally {
      await queue.close();
    }
  });
});
