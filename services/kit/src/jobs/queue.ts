/**
 * BullMQ helpers. BullMQ has no dead-letter queue: a job whose attempts are exhausted (or that threw
 * `PermanentJobError`) stays in the queue's FAILED set — `removeOnFail` is always false here, so the
 * evidence is never deleted — where `listFailedJobs` shows it to staff and tests and
 * `replayFailedJob` runs it again with fresh attempts.
 */
import {
  type DefaultJobOptions,
  isNotConnectionError,
  type Job,
  type JobsOptions,
  type Processor,
  Queue,
  UnrecoverableError,
  Worker,
} from 'bullmq';
import type { Redis } from 'ioredis';
import { unavailableDependency } from '../http/unavailable';
import { type KitLogger, silentLogger } from '../messaging/log';
import { currentTraceparent, inSpan, SpanKind, startSpan, traceIdOf } from '../tracing/context';
import { WORKER_OPTIONS } from './redis';

/**
 * Defaults for every job:
 * - 6 attempts, exponential backoff from 1 s with 50 % jitter (BullMQ's built-in `jitter`: the n-th
 *   retry waits a random time in [½·d·2ⁿ⁻¹, d·2ⁿ⁻¹)), so retries of many jobs that failed together
 *   (an outage) do not all hit the outside system at the same instant. ≈ 31 s worst case in total.
 * - completed jobs kept 7 days: while a job is kept, adding its job id again is a no-op, so this is
 *   the de-duplication window of `enqueueOnce`.
 * - failed jobs kept forever (see above).
 */
export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
  removeOnComplete: { age: 7 * 24 * 3600 },
  removeOnFail: false,
};

export interface QueueConnectionOptions {
  connection: Redis;
  /** Redis key prefix (default 'bull'); tests use a per-run prefix. */
  prefix?: string;
}

export function createQueue<Data = unknown>(
  name: string,
  opts: QueueConnectionOptions & {
    defaultJobOptions?: Omit<DefaultJobOptions, 'removeOnFail'>;
    logger?: KitLogger;
  },
): Queue<Data> {
  const queue = new Queue<Data>(name, {
    connection: opts.connection,
    prefix: opts.prefix,
    // BullMQ checks the server's version once per queue (INFO) and keeps a failed check for good:
    // on a producer connection (1 s command timeout) a busy machine's late answer left the queue
    // refusing every add until a restart. Workers, on connections without a timeout, still check.
    skipVersionCheck: true,
    defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...opts.defaultJobOptions, removeOnFail: false },
  });
  logQueueErrors(queue, opts.logger);
  return queue;
}

/**
 * A Queue re-emits its connection's errors (a Redis command that timed out, each failed reconnect);
 * with no listener BullMQ prints them to stderr as "Unhandled error", outside the service's log. The
 * caller of a failed command gets its rejection anyway, so a warning is enough; a refused or closed
 * connection is debug, as the service's own connection listener logs it (readiness reports Redis down,
 * and an outage would otherwise log a line per reconnect per queue).
 */
function logQueueErrors(queue: Queue, logger: KitLogger = silentLogger): void {
  const log = logger.child({ component: 'queue', queue: queue.name });
  queue.on('error', (err) => {
    if (isNotConnectionError(err)) log.warn({ err }, 'job queue: redis error');
    else log.debug({ err }, 'job queue: redis connection error');
  });
}

/**
 * BullMQ refuses custom ids that contain ':' (it is the key separator) or are integers. We build ids
 * from the cause joined with '.', e.g. `jobIdFor('email', 'PasswordResetRequested', eventId)` →
 * `email.PasswordResetRequested.<eventId>`; any ':' inside a part becomes '.' too.
 */
export function jobIdFor(...cause: Array<string | number>): string {
  const id = cause.map((p) => String(p).replaceAll(':', '.')).join('.');
  return /^-?\d+$/.test(id) ? `job.${id}` : id;
}

/**
 * Adds a job whose id is derived from its cause (`jobId` is sanitised with `jobIdFor`). If a job with
 * that id exists (waiting, active, delayed, completed within the retention window, or failed), BullMQ
 * adds nothing: the same cause never enqueues twice. Returns the job id.
 */
export async function enqueueOnce<Data>(
  queue: Queue<Data>,
  name: string,
  data: Data,
  opts: Omit<JobsOptions, 'jobId' | 'removeOnFail'> & { jobId: string },
): Promise<string> {
  const jobId = jobIdFor(opts.jobId);
  // The job runs in the trace that added it: its traceparent rides in BullMQ's own telemetry field.
  const span = currentTraceparent()
    ? startSpan(`enqueue ${queue.name}.${name}`, {
        kind: SpanKind.PRODUCER,
        attributes: { 'messaging.system': 'bullmq', 'job.id': jobId },
      })
    : undefined;
  const telemetry = span?.traceparent ? { telemetry: { metadata: span.traceparent } } : {};
  try {
    const id = await addSoon(queue as Queue, name, data, {
      ...opts,
      ...telemetry,
      jobId,
      removeOnFail: false,
    });
    span?.end();
    return id;
  } catch (err) {
    span?.end(err);
    throw err;
  }
}

interface PendingAdd {
  name: string;
  data: unknown;
  opts: JobsOptions & { jobId: string };
  resolve(id: string): void;
  reject(err: unknown): void;
}

/** Per queue, the adds asked for in this turn of the event loop (see `addSoon`). */
const pendingAdds = new WeakMap<Queue, PendingAdd[]>();

/**
 * The adds of one turn of the event loop on one queue go to Redis together: several as one addBulk
 * (one pipeline: one write and one round trip instead of one each; a Kafka consumer handling a
 * batch's events side by side queues its jobs in the same turn), one alone as a plain add. Should
 * the bulk fail, each job is added on its own, so each caller gets its own answer.
 */
function addSoon(queue: Queue, name: string, data: unknown, opts: PendingAdd['opts']): Promise<string> {
  let pending = pendingAdds.get(queue);
  if (!pending) {
    const batch: PendingAdd[] = [];
    pending = batch;
    pendingAdds.set(queue, batch);
    setImmediate(() => {
      pendingAdds.delete(queue);
      void flushAdds(queue, batch);
    });
  }
  const batch = pending;
  return new Promise((resolve, reject) => batch.push({ name, data, opts, resolve, reject }));
}

async function addOne(queue: Queue, name: string, data: unknown, opts: PendingAdd['opts']): Promise<string> {
  const job = await queue.add(name, data, opts);
  return job.id ?? opts.jobId;
}

async function flushAdds(queue: Queue, batch: PendingAdd[]): Promise<void> {
  if (batch.length > 1) {
    try {
      const jobs = await queue.addBulk(batch.map(({ name, data, opts }) => ({ name, data, opts })));
      for (const [i, add] of batch.entries()) add.resolve(jobs[i]?.id ?? add.opts.jobId);
      return;
    } catch (err) {
      // Redis away (or not answering): so would each add be, only later. Otherwise one job's fault
      // failed them all: each on its own now, with its own answer.
      if (unavailableDependency(err)) {
        for (const add of batch) add.reject(err);
        return;
      }
    }
  }
  await Promise.all(
    batch.map((add) => addOne(queue, add.name, add.data, add.opts).then(add.resolve, add.reject)),
  );
}

/** A processor run inside the trace its job was added in (when it was added inside one). */
function traced<Data>(queueName: string, processor: Processor<Data>): Processor<Data> {
  return (job, token, signal) => {
    const parent = job.opts.telemetry?.metadata;
    if (!parent) return processor(job, token, signal);
    return inSpan(
      `job ${queueName}.${job.name}`,
      {
        kind: SpanKind.CONSUMER,
        parent,
        attributes: { 'job.id': String(job.id), 'job.attempt': job.attemptsMade + 1 },
      },
      () => processor(job, token, signal),
    );
  };
}

/** Throw from a processor when retrying cannot help (bad data, a 4xx from the outside system). */
export class PermanentJobError extends UnrecoverableError {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

export interface JobWorker<Data = unknown> {
  readonly worker: Worker<Data>;
  /** Running, not closing, and its Redis connection is up. */
  isHealthy(): boolean;
  /** Stops taking jobs and waits for the active ones to finish. */
  close(): Promise<void>;
}

export function createWorker<Data = unknown>(
  queueName: string,
  processor: Processor<Data>,
  opts: QueueConnectionOptions & {
    concurrency?: number;
    logger?: KitLogger;
    /** A custom backoff (jobs added with `backoff: { type: 'custom' }`). */
    backoffStrategy?: (attemptsMade: number) => number;
  },
): JobWorker<Data> {
  const log = (opts.logger ?? silentLogger).child({ component: 'worker', queue: queueName });
  // Its own connection, whatever `connection` is: a worker's reads wait out a Redis outage, while a
  // producer connection (the one HTTP handlers share) must fail fast.
  const connection = opts.connection.duplicate(WORKER_OPTIONS);
  connection.on('error', () => {}); // the worker's 'error' below reports it
  const worker = new Worker<Data>(queueName, traced(queueName, processor), {
    connection,
    prefix: opts.prefix,
    concurrency: opts.concurrency ?? 1,
    ...(opts.backoffStrategy ? { settings: { backoffStrategy: opts.backoffStrategy } } : {}),
  });
  let lastError: Error | undefined;
  let closing = false;
  worker.on('error', (err) => {
    lastError = err;
    log.error({ err }, 'worker error');
  });
  worker.on('failed', (job, err) => {
    if (!job) return;
    const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (final)
      log.error(
        { err, jobId: job.id, attemptsMade: job.attemptsMade },
        'job failed for good; kept in failed set',
      );
    else log.warn({ err, jobId: job.id, attemptsMade: job.attemptsMade }, 'job attempt failed; will retry');
  });
  worker.on('completed', () => {
    lastError = undefined;
  });
  return {
    worker,
    isHealthy: () => !closing && worker.isRunning() && connection.status === 'ready',
    close: async () => {
      closing = true;
      await worker.close();
      await connection.quit().catch(() => connection.disconnect());
      if (lastError) log.debug({ err: lastError }, 'worker closed after an error');
    },
  };
}

export interface FailedJobRecord {
  id: string;
  name: string;
  data: unknown;
  failedReason: string;
  attemptsMade: number;
  finishedOn?: number;
  /** The trace the job ran in (the request or event that added it), or null with tracing off. */
  traceId: string | null;
}

/** The failed set, newest first (what staff and tests inspect). */
export async function listFailedJobs(queue: Queue, { start = 0, end = 99 } = {}): Promise<FailedJobRecord[]> {
  const jobs: Job[] = await queue.getFailed(start, end);
  return jobs.map((j) => ({
    id: String(j.id),
    name: j.name,
    data: j.data,
    failedReason: j.failedReason,
    attemptsMade: j.attemptsMade,
    finishedOn: j.finishedOn,
    traceId: traceIdOf(j.opts.telemetry?.metadata),
  }));
}

/** Moves a failed job back to waiting with fresh attempts. Throws if it is not in the failed set. */
export async function replayFailedJob(queue: Queue, id: string): Promise<void> {
  const job = await queue.getJob(id);
  if (!job) throw new Error(`job ${id} not found in queue ${queue.name}`);
  const state = await job.getState();
  if (state !== 'failed') throw new Error(`job ${id} is ${state}, not failed`);
  await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
}
