import type { Redis } from 'ioredis';
import pino from 'pino';
import type { CommonConfig } from './config';
import { createServiceApp } from './http/app';
import { type RunningService, runService } from './http/run';
import type { JobWorker } from './jobs/queue';
import { createRedis, pingRedis } from './jobs/redis';

export interface WorkerContext<C extends CommonConfig = CommonConfig> {
  name: string;
  config: C;
  log: pino.Logger;
  /** BullMQ worker connection (maxRetriesPerRequest: null). */
  redis: Redis;
}

export interface WorkerDefinition<C extends CommonConfig> {
  name: string;
  config: C;
  // biome-ignore lint/suspicious/noExplicitAny: each worker has its own job data type
  workers(ctx: WorkerContext<C>): JobWorker<any>[] | Promise<JobWorker<any>[]>;
}

/**
 * A BullMQ worker process: runs the service's job workers and answers /healthz and /readyz on
 * PORT so a supervisor can see it. SIGTERM lets active jobs finish before exiting.
 */
export async function startWorkers<C extends CommonConfig>(
  def: WorkerDefinition<C>,
  opts: { exit?: (code: number) => void } = {},
): Promise<RunningService> {
  const { config } = def;
  const log = pino({ level: config.LOG_LEVEL, base: { service: def.name } });
  const redis = createRedis(config.REDIS_URL);
  const workers = await def.workers({ name: def.name, config, log, redis });
  // Open the health port only once every worker has its Redis connection and is taking jobs.
  await Promise.all(workers.map((w) => w.worker.waitUntilReady()));

  const app = await createServiceApp({ name: def.name, logger: log });
  app.addReadinessCheck('redis', () => pingRedis(redis));
  app.addReadinessCheck('workers', () => workers.every((w) => w.isHealthy()));
  const running = await runService({
    app,
    port: config.PORT,
    host: config.HOST,
    exit: opts.exit,
    onClose: [
      ...workers.map((w) => ({ name: `worker ${w.worker.name}`, close: () => w.close() })),
      { name: 'redis', close: () => redis.quit() },
    ],
  });
  log.info({ url: running.url }, `${def.name} ready`);
  return running;
}
