import type { JobType } from 'bullmq';
import { Gauge, type Registry } from 'prom-client';
import { metricOf } from './registry';

/**
 * The states `bullmq_jobs` reports. BullMQ 6 keeps a paused queue's jobs in its wait list (no paused
 * list any more): they are reported as `paused` while the queue is paused, as `waiting` otherwise.
 * `waiting` includes prioritized jobs (waiting too, in a list of their own).
 */
export const QUEUE_METRIC_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'paused'] as const;
export type QueueMetricState = (typeof QUEUE_METRIC_STATES)[number];

/** What is read of a queue (any `Queue<Data>` fits). */
export interface CountableQueue {
  readonly name: string;
  getJobCounts(...types: JobType[]): Promise<Record<string, number>>;
  isPaused(): Promise<boolean>;
}

const COUNTED: JobType[] = ['waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'];

/** The queue's jobs per reported state (two Redis round trips). */
export async function queueJobCounts(queue: CountableQueue): Promise<Record<QueueMetricState, number>> {
  const [counts, paused] = await Promise.all([queue.getJobCounts(...COUNTED), queue.isPaused()]);
  const ready = (counts.waiting ?? 0) + (counts.prioritized ?? 0);
  return {
    waiting: paused ? 0 : ready,
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
    completed: counts.completed ?? 0,
    paused: paused ? ready : 0,
  };
}

export interface QueueMetricsOptions {
  /** Longest wait for one queue's counts at a scrape; a queue slower than this is left out of it. Default 2000 ms. */
  timeoutMs?: number;
}

const queuesOf = new WeakMap<Registry, Map<CountableQueue, number>>();

/**
 * `bullmq_jobs{queue, state}`: the job counts of `queues`, read from Redis at scrape time
 * (`queue.getJobCounts` and `isPaused`, two round trips per queue, no job data). A queue whose counts fail or take longer than
 * `timeoutMs` is left out of that scrape, so Redis being down never hangs `/metrics`. Call it once per
 * queue (e.g. in a service's `build()` with `base.metrics`); returns a function that stops reporting them.
 */
export function registerQueueMetrics(
  registry: Registry,
  queues: readonly CountableQueue[],
  { timeoutMs = 2000 }: QueueMetricsOptions = {},
): () => void {
  let registered = queuesOf.get(registry);
  if (!registered) {
    const all = new Map<CountableQueue, number>();
    registered = all;
    queuesOf.set(registry, all);
    metricOf(
      registry,
      'bullmq_jobs',
      () =>
        new Gauge({
          name: 'bullmq_jobs',
          help: 'BullMQ jobs per queue and state, read at scrape time',
          labelNames: ['queue', 'state'],
          registers: [registry],
          async collect() {
            const counted = await Promise.all(
              [...all].map(async ([queue, limit]) => {
                const counts = await withinMs(queueJobCounts(queue), limit);
                return { queue: queue.name, counts };
              }),
            );
            this.reset();
            for (const { queue, counts } of counted) {
              if (!counts) continue;
              for (const state of QUEUE_METRIC_STATES) this.set({ queue, state }, counts[state]);
            }
          },
        }),
    );
  }
  for (const queue of queues) registered.set(queue, timeoutMs);
  return () => {
    for (const queue of queues) registered.delete(queue);
  };
}

/** The promise's value, or undefined if it fails or takes longer than `ms`. */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.catch(() => undefined), // a late failure must not surface as an unhandled rejection
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
