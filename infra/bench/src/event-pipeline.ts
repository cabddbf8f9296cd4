/**
 * Event pipeline: from the user service's state write to the notification service's effect.
 *
 * POST /send/reset (straight to the user service) writes passwordReset + a PasswordResetRequested
 * event into the user document in one write → outbox relay → Kafka `<prefix>.user` → consumer group
 * `notification.emails` → BullMQ job `email.<eventId>` in queue 'email'. No e-mail worker runs, so
 * SMTP never competes for the cores; the effect measured is "the job exists in Redis".
 *
 * Timing without the HTTP round trip:
 * - start = the event's `occurredAt`, stamped by the user service just before its document write
 *   (so the figure includes that Mongo write). Read back afterwards from the Kafka topic with a
 *   separate consumer group — nothing extra listens while events are measured.
 * - end = the ms part of the stream id of the 'added' entry BullMQ's add script writes to
 *   `<prefix>:email:events` in the same Lua call that stores the job: Redis's clock at the moment
 *   the job exists. Same machine, same wall clock as the service's.
 * - The Kafka message timestamp (the relay's producer sets it when it sends) splits the total into
 *   write → published and published → job.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PasswordResetRequested } from '@decor/contracts';
import { topicFor } from '@decor/kit';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';
import { Pool } from 'undici';
import { cpuMeter, percentile } from './stats';

/** The seeded demo accounts: rotating them spreads the events over three aggregates (partitions). */
const DEMO_EMAILS = ['customer@decor.example', 'staff@decor.example', 'owner@decor.example'];

export interface PipelineOptions {
  events: number;
  warmupEvents: number;
  perSecond: number;
  roles: Record<string, number>;
  /** How long to wait for the last jobs after the last send. Default 30 s. */
  drainTimeoutMs?: number;
}

export interface Spread {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface PipelineFigures {
  events: number;
  perSecond: number;
  warmupEvents: number;
  /** Measured events whose job never appeared (or whose event was not found on the topic). */
  missing: number;
  /** Sends that did not answer 200. */
  failedSends: number;
  /** The first of them: its status and the start of its body (the outbox cap's 503, or a limit's 429). */
  firstRefusal?: string;
  total: Spread;
  /** Every measured event's total, ms (to pool several runs: tracing-cost.ts). */
  totals: number[];
  writeToPublished: Spread;
  publishedToJob: Spread;
  cores: Record<string, number>;
  /** How long the sending window (over which `cores` was read) lasted. */
  sendSeconds: number;
  /**
   * The cores from the first send until the last job was added (or the wait for it gave up): all the
   * work these events caused, for the CPU per event (pipeline-knee.ts). `doneSeconds` is that window.
   */
  coresToDone: Record<string, number>;
  doneSeconds: number;
}

interface Stack {
  userUrl: string;
  /**
   * Where the resets go instead: the gateway's origin (its path /api/send/reset), so the gateway
   * and its tracing decision are part of the pipeline (tracing-cost.ts). Default: the user service.
   */
  viaGatewayUrl?: string;
  kafkaBrokers: string[];
  redisUrl: string;
  runId: string;
}

function spread(values: number[]): Spread {
  return {
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: percentile(values, 100),
  };
}

/**
 * Open loop: request i leaves at start + i/rate whatever the earlier ones are doing. Answers the
 * number that failed; the first failure's reason goes to `log`. Sent with undici's Pool rather than
 * `fetch`: at 500/s fetch cost the bench a fifth of a core more (0.30 against 0.11 for client and a
 * bare server together), taken from the 2 cores the services are measured on.
 */
async function sendResets(
  target: { origin: string; path: string },
  count: number,
  perSecond: number,
  log: (line: string) => void,
): Promise<{ failed: number; firstRefusal?: string }> {
  let firstRefusal: string | undefined;
  const failed = (why: string) => {
    firstRefusal ??= why;
    return false;
  };
  // As many connections as requests in flight (as fetch did): a cap would queue sends in the bench.
  const pool = new Pool(target.origin, { connections: null });
  const interval = 1000 / perSecond;
  const start = performance.now();
  const sends: Promise<boolean>[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const wait = start + i * interval - performance.now();
      if (wait > 0) await sleep(wait);
      sends.push(
        pool
          .request({
            path: target.path,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: DEMO_EMAILS[i % DEMO_EMAILS.length] }),
          })
          .then(
            async (res) => {
              const body = await res.body.text();
              return (
                (res.statusCode >= 200 && res.statusCode < 300) ||
                failed(`${res.statusCode} ${body.slice(0, 200)}`)
              );
            },
            (err: Error) => failed(err.message),
          ),
      );
    }
    const results = await Promise.all(sends);
    if (firstRefusal) log(`event pipeline: a send failed: ${firstRefusal}`);
    return { failed: results.filter((ok) => !ok).length, firstRefusal };
  } finally {
    await pool.close();
  }
}

/** jobId → when Redis stored the job (ms), for jobs added at or after `sinceMs`. */
async function jobsAdded(redis: Redis, key: string, sinceMs: number): Promise<Map<string, number>> {
  const added = new Map<string, number>();
  let from = String(sinceMs);
  for (;;) {
    const page = await redis.xrange(key, from, '+', 'COUNT', 1000);
    for (const [id, fields] of page) {
      const f: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i] as string] = fields[i + 1] as string;
      if (f.event === 'added' && f.jobId) added.set(f.jobId, Number(id.split('-')[0]));
    }
    if (page.length < 1000) return added;
    from = `(${(page.at(-1) as [string, string[]])[0]}`;
  }
}

/**
 * Waits until `expected` jobs were added at or after `sinceMs` (or `timeoutMs` passed), reading only
 * the stream's new entries on each look: a re-read of thousands of entries every 250 ms cost Redis
 * and the bench CPU that the stepped run (pipeline-knee.ts) counts.
 */
async function waitForJobs(
  redis: Redis,
  key: string,
  sinceMs: number,
  expected: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let from = String(sinceMs);
  let added = 0;
  while (Date.now() < deadline) {
    for (;;) {
      const page = await redis.xrange(key, from, '+', 'COUNT', 1000);
      for (const [, fields] of page) if (fields[0] === 'event' && fields[1] === 'added') added += 1;
      if (page.length > 0) from = `(${(page.at(-1) as [string, string[]])[0]}`;
      if (page.length < 1000) break;
    }
    if (added >= expected) return;
    await sleep(100);
  }
}

interface Published {
  occurredAt: number;
  publishedAt: number;
}

/** The PasswordResetRequested events on the topic that occurred at or after `sinceMs`, by event id. */
async function readBackEvents(
  stack: Stack,
  sinceMs: number,
  expected: number,
): Promise<Map<string, Published>> {
  const kafka = new Kafka({
    clientId: `${stack.runId}-bench`,
    brokers: stack.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `${stack.runId}.bench-readback` });
  const found = new Map<string, Published>();
  await consumer.connect();
  try {
    const topic = topicFor(stack.runId, PasswordResetRequested.aggregateType);
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const envelope = JSON.parse(message.value?.toString() ?? '{}') as {
          id?: string;
          type?: string;
          occurredAt?: string;
        };
        const occurredAt = Date.parse(envelope.occurredAt ?? '');
        if (envelope.type !== PasswordResetRequested.type || !envelope.id || !(occurredAt >= sinceMs)) return;
        found.set(envelope.id, { occurredAt, publishedAt: Number(message.timestamp) });
      },
    });
    const deadline = Date.now() + 60_000;
    while (found.size < expected && Date.now() < deadline) await sleep(200);
  } finally {
    await consumer.disconnect();
  }
  return found;
}

/**
 * The consumer groups reading each of the run's topics now (their members' assignments), e.g.
 * `bench1a2b3c.user` → ['bench1a2b3c.notification.emails', 'user.sessions.<uuid>', …].
 */
export async function groupsByTopic(
  stack: Pick<Stack, 'kafkaBrokers' | 'runId'>,
): Promise<Map<string, string[]>> {
  const kafka = new Kafka({
    clientId: `${stack.runId}-groups`,
    brokers: stack.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  const byTopic = new Map<string, string[]>();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const described = await admin.describeGroups(groups.map((g) => g.groupId));
    for (const group of described.groups) {
      const topics = new Set<string>();
      for (const member of group.members) {
        const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
        for (const topic of Object.keys(decoded?.assignment ?? {})) topics.add(topic);
      }
      for (const topic of topics) {
        if (!topic.startsWith(`${stack.runId}.`)) continue;
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), group.groupId]);
      }
    }
  } finally {
    await admin.disconnect();
  }
  return byTopic;
}

export async function measureEventPipeline(
  stack: Stack,
  opts: PipelineOptions,
  log: (line: string) => void,
): Promise<PipelineFigures> {
  const redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: 3 });
  const target = stack.viaGatewayUrl
    ? { origin: stack.viaGatewayUrl, path: '/api/send/reset' }
    : { origin: stack.userUrl, path: '/send/reset' };
  const streamKey = `${stack.runId}:email:events`;
  try {
    if (opts.warmupEvents > 0) {
      log(`event pipeline: ${opts.warmupEvents} warm-up events at ${opts.perSecond}/s (not measured) …`);
      const warmStart = Date.now();
      await sendResets(target, opts.warmupEvents, opts.perSecond, log);
      await waitForJobs(redis, streamKey, warmStart, opts.warmupEvents, 60_000);
    }
    await sleep(1000);

    if (opts.warmupEvents > 0) {
      const groups = await groupsByTopic(stack);
      for (const [topic, ids] of [...groups].sort()) {
        // Own groups end in a uuid: shown by their name alone.
        const names = ids.map((id) => id.replace(/\.[0-9a-f-]{36}$/, '.<uuid>')).sort();
        log(`  ${topic} is read by ${ids.length} groups: ${names.join(', ')}`);
      }
    }
    log(`event pipeline: measuring ${opts.events} events at ${opts.perSecond}/s …`);
    const since = Date.now();
    const meter = cpuMeter(opts.roles);
    const { failed: failedSends, firstRefusal } = await sendResets(target, opts.events, opts.perSecond, log);
    const sendSeconds = (Date.now() - since) / 1000;
    // The cores of the sending window, read before the wait for the last jobs: read after it, a wait
    // for jobs that never came (up to 30 s idle) thinned a run that fell behind into an idle machine.
    const cores = meter();
    await waitForJobs(redis, streamKey, since, opts.events - failedSends, opts.drainTimeoutMs ?? 30_000);
    const coresToDone = meter();
    const doneSeconds = (Date.now() - since) / 1000;

    const [published, jobs] = await Promise.all([
      readBackEvents(stack, since, opts.events - failedSends),
      jobsAdded(redis, streamKey, since),
    ]);
    const total: number[] = [];
    const toPublished: number[] = [];
    const toJob: number[] = [];
    for (const [eventId, e] of published) {
      const jobAt = jobs.get(`email.${eventId}`);
      if (jobAt === undefined) continue;
      total.push(jobAt - e.occurredAt);
      toPublished.push(e.publishedAt - e.occurredAt);
      toJob.push(jobAt - e.publishedAt);
    }
    return {
      events: total.length,
      perSecond: opts.perSecond,
      warmupEvents: opts.warmupEvents,
      missing: opts.events - failedSends - total.length,
      failedSends,
      ...(firstRefusal ? { firstRefusal } : {}),
      total: spread(total),
      totals: total,
      writeToPublished: spread(toPublished),
      publishedToJob: spread(toJob),
      cores,
      sendSeconds,
      coresToDone,
      doneSeconds,
    };
  } finally {
    redis.disconnect();
  }
}

/**
 * The pipeline's reset e-mails are measured as jobs and never meant to be sent: without this, the
 * e-mail worker a later part starts (the checkouts) sends the knee's ~14,000 resets first and the
 * checkouts' own e-mails miss their 120 s.
 */
export async function discardPipelineJobs(redisUrl: string, runId: string): Promise<void> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('email', { prefix: runId, connection });
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
