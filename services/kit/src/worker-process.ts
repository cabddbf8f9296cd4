import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import pino from 'pino';
import type { Registry } from 'prom-client';
import type { CommonConfig } from './config';
import { createServiceApp } from './http/app';
import { type RunningService, runService } from './http/run';
import { createQueue, type JobWorker } from './jobs/queue';
import { createRedis, pingRedis } from './jobs/redis';
import { registerQueueMetrics } from './metrics/queues';
import { createMetricsRegistry } from './metrics/registry';
import { flushTracing, traceLogMixin } from './tracing/context';

export interface WorkerContext<C extends CommonConfig = CommonConfig> {
  name: string;
  config: C;
  log: pino.Logger;
  /** BullMQ worker connection (maxRetriesPerRequest: null). */
  redis: Redis;
  /**
   * This process's metrics registry (`GET /metrics`). The job counts of every queue a worker of the
   * process takes jobs from are reported already (`bullmq_jobs`); register anything else here.
   */
  metrics: Registry;
}

export interface WorkerDefinition<C extends CommonConfig> {
  name: string;
  config: C;
  // biome-ignore lint/suspicious/noExplicitAny: each worker has its own job data type
  workers(ctx: WorkerContext<C>): JobWorker<any>[] | Promise<JobWorker<any>[]>;
}

/**
 * A BullMQ worker process: runs the service's job workers and answers /healthz, /readyz and /metrics
 * (with `bullmq_jobs` of the queues its workers take jobs from) on PORT so a supervisor and a scraper
 * can see it. SIGTERM lets active jobs finish before exiting.
 */
export async function startWorkers<C extends CommonConfig>(
  def: WorkerDefinition<C>,
  opts: { exit?: (code: number) => void } = {},
): Promise<RunningService> {
  const { config } = def;
  const log = pino({ level: config.LOG_LEVEL, base: { service: def.name }, mixin: traceLogMixin });
  const redis = createRedis(config.REDIS_URL);
  const metrics = createMetricsRegistry(def.name);
  const workers = await def.workers({ name: def.name, config, log, redis, metrics });
  // Open the health port only once every worker has its Redis connection and is taking jobs.
  await Promise.all(workers.map((w) => w.worker.waitUntilReady()));
  // One read-only Queue handle per queue the workers serve, for its job counts (shares `redis`).
  const counted = new Map<string, Queue>();
  for (const { worker } of workers) {
    const key = `${worker.opts.prefix ?? 'bull'}:${worker.name}`;
    if (!counted.has(key))
      counted.set(
        key,
        createQueue(worker.name, { connection: redis, prefix: worker.opts.prefix, logger: log }),
      );
  }
  registerQueueMetrics(metrics, [...counted.values()]);

  const app = await createServiceApp({ name: def.name, logger: log, metrics });
  app.addReadinessCheck('redis', () => pingRedis(redis));
  app.addReadinessCheck('workers', () => workers.every((w) => w.isHealthy()));
  const running = await runService({
    app,
    port: config.PORT,
    host: config.HOST,
    exit: opts.exit,
    onClose: [
      ...workers.map((w) => ({ name: `worker ${w.worker.name}`, close: () => w.close() })),
      { name: 'queue metrics', close: () => Promise.all([...counted.values()].map((q) => q.close())) },
      { name: 'redis', close: () => redis.quit() },
      { name: 'tracing', close: () => flushTracing() },
    ],
  });
  log.info({ url: running.url }, `${def.name} ready`);
  return running;
}
