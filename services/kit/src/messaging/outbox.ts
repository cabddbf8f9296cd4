/**
 * Transactional outbox inside the aggregate document.
 *
 * Our MongoDB (mongo-java-server) has no multi-document transactions, so the pending events live IN
 * the aggregate's own document (`outbox: [EventEnvelope]`) and the caller writes them in the same
 * single-document write as the state change. A crash can therefore never keep the state change and
 * lose the event (or the reverse).
 *
 * Why this is "effectively once" end to end:
 * - The relay publishes a document's events, waits for acks=all, and only then `$pull`s exactly the
 *   ids it published. A crash between "sent" and "pulled" re-publishes them: at-least-once.
 * - The relay first claims the document with a short lease (findOneAndUpdate on a lease field), so two
 *   instances of a service do not publish the same document at the same time; a send that outlives
 *   its timeout keeps it, renewed, until kafkajs settles it. The lease can still expire under a
 *   stalled process, so duplicates are possible; they are rare, not impossible.
 * - Every event carries a unique id; consumers remember processed ids per group and apply state
 *   changes conditionally on the id (see consumer.ts), so a duplicate is a no-op. Together:
 *   at-least-once delivery + idempotent consumers = each event's effect happens once.
 * - Order: one aggregate's events sit in one document in push order and are published in that order,
 *   keyed by aggregate id onto one partition; the lease keeps a second relay from interleaving.
 */
import { randomUUID } from 'node:crypto';
import type { EventContract, EventEnvelope } from '@decor/contracts';
import type { Static, TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { type Model, type mongo, Schema } from 'mongoose';
import { currentTraceparent } from '../tracing/context';
import { ensureTopics, type Publisher, publishEnvelopes, topicFor } from './kafka';
import { type KitLogger, silentLogger } from './log';
import { capOutbox } from './outbox-cap';

/** Fields `outboxPlugin` adds to an aggregate's document type. */
export interface OutboxFields {
  outbox: EventEnvelope[];
  /** While set and in the future, one relay instance owns publishing this document's events. */
  outboxLeaseUntil?: Date | null;
  outboxLeaseOwner?: string | null;
}

/**
 * `minimize: false` matters: mongoose otherwise strips empty objects (`{}`) from a Mixed payload on
 * save AND when casting `$push`, so a consumer would receive a payload that fails its own schema.
 */
const envelopeSchema = new Schema<EventEnvelope>(
  {
    id: { type: String, required: true },
    type: { type: String, required: true },
    version: { type: Number, required: true },
    aggregateType: { type: String, required: true },
    aggregateId: { type: String, required: true },
    occurredAt: { type: String, required: true },
    correlationId: { type: String, required: true },
    traceparent: { type: String, required: false },
    payload: { type: Schema.Types.Mixed, required: true },
  },
  { _id: false, id: false, minimize: false },
);

/**
 * Adds `outbox` and the relay's lease fields to an aggregate schema: `schema.plugin(outboxPlugin)`.
 * Writes that would leave more than MAX_PENDING_EVENTS pending are refused (outbox-cap.ts).
 */
export function outboxPlugin(schema: Schema): void {
  schema.add({
    outbox: { type: [envelopeSchema], default: [] },
    outboxLeaseUntil: { type: Date, default: null },
    outboxLeaseOwner: { type: String, default: null },
  });
  // The relay's scan (claim: 'outbox.0' exists and the lease is free) reads only the documents with
  // events to publish, not the whole collection every poll (issue 31: at 100,000 estimates that scan
  // held the embedded server's collection for most of each second). Partial: idle documents are not in it.
  schema.index(
    { outboxLeaseUntil: 1 },
    { name: 'outbox_pending', partialFilterExpression: { 'outbox.0': { $exists: true } } },
  );
  capOutbox(schema);
}

const checks = new WeakMap<TSchema, TypeCheck<TSchema>>();

/**
 * Largest event (serialised envelope) a writer may store. Kafka refuses messages over 1 MB by
 * default, and a refused batch can leave kafkajs' idempotent producer out of sequence for that
 * partition, stalling other aggregates' events behind it: refuse such an event at the writer.
 */
export const MAX_EVENT_BYTES = 512 * 1024;

/** The writing request's trace, kept with the event for its later send (nothing with tracing off). */
function withTraceparent(): { traceparent?: string } {
  const traceparent = currentTraceparent();
  return traceparent ? { traceparent } : {};
}

export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
}

/**
 * Builds an envelope for `contract`, checking the payload against the contract's schema here, at the
 * writer, so a malformed event is refused before it is stored rather than poisoning consumers.
 */
export function newEvent<C extends EventContract>(
  contract: C,
  args: { aggregateId: string; payload: Static<C['payload']>; correlationId: string },
): EventEnvelope<Static<C['payload']>> {
  let check = checks.get(contract.payload);
  if (!check) {
    check = TypeCompiler.Compile(contract.payload);
    checks.set(contract.payload, check);
  }
  if (!check.Check(args.payload)) {
    const problems = [...check.Errors(args.payload)]
      .slice(0, 5)
      .map((e) => `${e.path || '/'}: ${e.message}`)
      .join('; ');
    throw new InvalidEventError(`${contract.type} payload is invalid: ${problems}`);
  }
  if (!args.aggregateId) throw new InvalidEventError(`${contract.type} needs an aggregateId`);
  const envelope = {
    id: randomUUID(),
    type: contract.type,
    version: contract.version,
    aggregateType: contract.aggregateType,
    aggregateId: String(args.aggregateId),
    occurredAt: new Date().toISOString(),
    correlationId: args.correlationId || randomUUID(),
    ...withTraceparent(),
    payload: args.payload,
  };
  const bytes = Buffer.byteLength(JSON.stringify(envelope));
  if (bytes > MAX_EVENT_BYTES) {
    throw new InvalidEventError(`${contract.type} is ${bytes} bytes, over the ${MAX_EVENT_BYTES}-byte limit`);
  }
  return envelope;
}

export interface OutboxRelayOptions {
  /** Aggregate models whose schema uses `outboxPlugin`. */
  // biome-ignore lint/suspicious/noExplicitAny: models of any document type; only the outbox fields are used
  models: Model<any>[];
  publisher: Publisher;
  /** Topic = `<topicPrefix>.<aggregateType>`. */
  topicPrefix: string;
  /** Safety-net scan interval (after a crash, or if a writer forgot notify()). Default 1000. */
  pollIntervalMs?: number;
  /** Documents claimed per round. Default 100. */
  batch?: number;
  /** How long a claim keeps other relays off a document. Default 10 s. */
  leaseMs?: number;
  /** Give up waiting for Kafka acks after this long (the events stay pending). Default 5 s. */
  publishTimeoutMs?: number;
  /** Partitions for topics the relay creates on first use. Default 6. */
  partitions?: number;
  logger?: KitLogger;
}

export interface RelayHealth {
  running: boolean;
  healthy: boolean;
  lastError?: string;
  lastSuccessAt?: number;
  published: number;
}

interface OutboxDoc {
  // biome-ignore lint/suspicious/noExplicitAny: whatever _id type the aggregate uses
  _id: any;
  outbox: EventEnvelope[];
  outboxLeaseUntil: Date | null;
  outboxLeaseOwner: string | null;
}
type OutboxCollection = mongo.Collection<OutboxDoc>;

interface Claimed {
  coll: OutboxCollection;
  // biome-ignore lint/suspicious/noExplicitAny: whatever _id type the aggregate uses
  _id: any;
  events: EventEnvelope[];
}

/**
 * Failed rounds in a row after which the relay is unhealthy: events are stuck. One or two are a blip
 * (a broker restarting, or too busy to ack in time on a loaded machine as a stack starts).
 */
const STUCK_AFTER_FAILED_ROUNDS = 3;

/**
 * Publishes outboxed events. Writers call `notify(docId)` right after their write so the event
 * leaves within milliseconds; the periodic scan only covers crashes and missed notifications.
 */
export class OutboxRelay {
  readonly owner = `relay-${randomUUID()}`;
  private readonly opts: Required<Omit<OutboxRelayOptions, 'logger'>>;
  private readonly log: KitLogger;
  private readonly readyTopics = new Set<string>();
  /**
   * Documents written since the last round, by String(_id): a busy document is notified once per
   * write, and claiming it once per notification (every try after the first finds it leased) made
   * rounds slower the busier it got, until writers hit the outbox cap.
   */
  private hinted = new Map<string, unknown>();
  /**
   * Busy documents this relay still holds, with the events its last mark found waiting: the next
   * round publishes them without claiming again (a round trip less per round while writes pour in).
   */
  private carried: Claimed[] = [];
  private scanRequested = true;
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private failures = 0;
  private lastError?: string;
  private lastSuccessAt?: number;
  private published = 0;
  private roundsStarted = 0;
  private roundWaiters: { after: number; resolve: () => void }[] = [];
  /**
   * Set once a round marks a busy document (its read of what waits may be carried over), cleared
   * when the next round starts: `flushed` then waits one round more.
   */
  private mayCarry = false;
  /** The documents carried into the round under way (see `carried`). */
  private inRound: Claimed[] = [];
  /** A timed-out send still in kafkajs' hands (see publishAndMark). */
  private late?: Promise<void>;

  constructor({ logger = silentLogger, ...opts }: OutboxRelayOptions) {
    this.opts = {
      pollIntervalMs: 1000,
      batch: 100,
      leaseMs: 10_000,
      publishTimeoutMs: 5000,
      partitions: 6,
      ...opts,
    };
    this.log = logger.child({ component: 'outbox-relay' });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.scanRequested = true;
    this.loop = this.run();
  }

  /** Wake the relay now. With the written document's `_id` it claims just that one (no scan). */
  notify(docId?: unknown): void {
    if (docId === undefined) this.scanRequested = true;
    else this.hint(docId);
    this.wake?.();
  }

  /**
   * Resolves once a round that starts after this call has finished (published or failed), or after
   * `timeoutMs`. With `notify(docId)` just before, it lets a writer answer only once its events are
   * on Kafka, so a client's next call to another service sees them (read-your-writes across services).
   */
  flushed(timeoutMs = 2000): Promise<void> {
    // The last round failed (Kafka away): waiting cannot help; the events drain once it is back.
    if (!this.running || this.failures > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      // A document carried over may carry a read taken before the caller's write: the round after
      // it reads again (see markPublished).
      const waiter = { after: this.roundsStarted + (this.mayCarry ? 1 : 0), resolve: done };
      this.roundWaiters.push(waiter);
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  private finishRound(round: number): void {
    const due = this.roundWaiters.filter((w) => w.after < round);
    this.roundWaiters = this.roundWaiters.filter((w) => w.after >= round);
    for (const w of due) w.resolve();
  }

  /** Stops after the batch in flight (if any) has been published and marked. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    // Whatever is still held goes back at once rather than when its lease runs out.
    const held = this.carried;
    this.carried = [];
    await Promise.all(held.map((c) => this.release(c).catch(() => {})));
    this.finishRound(Number.POSITIVE_INFINITY);
  }

  isHealthy(): boolean {
    return this.running && this.failures < STUCK_AFTER_FAILED_ROUNDS && this.opts.publisher.isConnected();
  }

  health(): RelayHealth {
    return {
      running: this.running,
      healthy: this.isHealthy(),
      lastError: this.lastError,
      lastSuccessAt: this.lastSuccessAt,
      published: this.published,
    };
  }

  private async run(): Promise<void> {
    let nextScanAt = 0;
    while (this.running) {
      const hints = this.hinted;
      this.hinted = new Map();
      const scan = this.scanRequested || Date.now() >= nextScanAt;
      this.scanRequested = false;
      if (scan) nextScanAt = Date.now() + this.opts.pollIntervalMs;
      let claimed = 0;
      const round = ++this.roundsStarted;
      this.mayCarry = false;
      try {
        claimed = await this.round(hints, scan);
        this.failures = 0;
        this.lastError = undefined;
        this.lastSuccessAt = Date.now();
      } catch (err) {
        this.failures += 1;
        this.lastError = (err as Error).message;
        // A blip is a warning (retried here); from the round that makes the relay unhealthy, an error.
        const level = this.failures < STUCK_AFTER_FAILED_ROUNDS ? 'warn' : 'error';
        this.log[level]({ err, failures: this.failures }, 'outbox relay round failed; retrying');
        for (const id of hints.values()) this.hint(id);
        // Documents the failed round had carried over are still leased to this relay: claimed again.
        for (const c of this.inRound) this.hint(c._id);
        this.scanRequested = true;
        this.finishRound(round);
        await this.sleep(Math.min(200 * 2 ** this.failures, 5000));
        continue;
      }
      this.finishRound(round);
      if (!this.running) break;
      // A full round means more may be waiting: scan again at once. A scan that ended short of the
      // batch found everything there was; another one at once would only cost a claim that matches
      // nothing, which under load (documents carried round after round) took most of each round.
      if (claimed >= this.opts.batch && scan) this.scanRequested = true;
      if (this.hinted.size > 0 || this.scanRequested || this.carried.length > 0) continue;
      await this.sleep(Math.max(0, nextScanAt - Date.now()));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        if (this.wake === finish) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wake = finish;
    });
  }

  private hint(docId: unknown): void {
    this.hinted.set(String(docId), docId);
  }

  /** One claim → publish → mark round. Returns the number of documents claimed. */
  private async round(hints: Map<string, unknown>, scan: boolean): Promise<number> {
    if (this.late) {
      await this.late;
      this.late = undefined;
    }
    const claimed: Claimed[] = [...this.carried];
    this.inRound = this.carried;
    this.carried = [];
    // A hinted id found in one model (or carried over) is not looked for in the next ones.
    const pendingHints = new Map(hints);
    for (const c of claimed) pendingHints.delete(String(c._id));
    for (const model of this.opts.models) {
      const coll = model.collection as unknown as OutboxCollection;
      // Claimed at once: one round trip for the written documents, not one after another. A hinted
      // document may be leased to this relay already (its release found new events: see markPublished).
      const tries = [...pendingHints].slice(0, Math.max(0, this.opts.batch - claimed.length));
      const docs = await Promise.all(
        tries.map(async ([key, _id]) => ({ key, doc: await this.claim(coll, { _id }, true) })),
      );
      for (const { key, doc } of docs) {
        if (!doc) continue;
        claimed.push(doc);
        pendingHints.delete(key);
      }
      while (scan && claimed.length < this.opts.batch) {
        const doc = await this.claim(coll, {});
        if (!doc) break;
        claimed.push(doc);
      }
    }
    this.inRound = [];
    if (claimed.length >= this.opts.batch) for (const id of hints.values()) this.hint(id); // cheap re-check
    if (claimed.length === 0) return 0;
    try {
      await this.publishAndMark(claimed);
      this.published += claimed.reduce((n, c) => n + c.events.length, 0);
      return claimed.length;
    } catch (err) {
      // Timed out (Kafka away), not refused: going document by document would send them all again,
      // and so would another instance if they were let go — they stay ours until the send settles.
      if (this.late) throw err;
      if (claimed.length === 1) {
        await this.release(claimed[0] as Claimed).catch(() => {});
        throw err;
      }
    }
    // The batch failed: go document by document so one unpublishable document (say, an event over
    // the broker's size limit) cannot hold back every other aggregate's events.
    let lastError: unknown;
    let ok = 0;
    for (const c of claimed) {
      if (this.late) {
        // One send timed out: Kafka is away; leave the rest for the next round.
        await this.release(c).catch(() => {});
        continue;
      }
      try {
        await this.publishAndMark([c]);
        this.published += c.events.length;
        ok += 1;
      } catch (err) {
        lastError = err;
        if (this.late) continue; // its send timed out and may still deliver: kept (see publishAndMark)
        this.log.error({ err, docId: String(c._id) }, 'outbox document could not be published');
        // Let the next round (here or in another instance) retry it without waiting out the lease.
        await this.release(c).catch(() => {});
      }
    }
    if (ok === 0) throw lastError;
    return claimed.length;
  }

  private async claim(
    coll: OutboxCollection,
    where: Record<string, unknown>,
    evenIfOurs = false,
  ): Promise<Claimed | null> {
    const now = new Date();
    const free: Record<string, unknown>[] = [{ outboxLeaseUntil: null }, { outboxLeaseUntil: { $lt: now } }];
    // Between rounds nothing of this relay's is in flight, so a document it still holds is free to it.
    if (evenIfOurs) free.push({ outboxLeaseOwner: this.owner });
    const doc = await coll.findOneAndUpdate(
      { ...where, 'outbox.0': { $exists: true }, $or: free },
      {
        $set: { outboxLeaseUntil: new Date(now.getTime() + this.opts.leaseMs), outboxLeaseOwner: this.owner },
      },
      { returnDocument: 'after', projection: { outbox: 1 } },
    );
    if (!doc) return null;
    return { coll, _id: doc._id, events: (doc.outbox as EventEnvelope[]) ?? [] };
  }

  /**
   * Publishes the claimed documents' events and pulls them. A send that outlives the publish timeout
   * is not abandoned: kafkajs keeps retrying it, and may well deliver it once Kafka is back. So the
   * next round first waits for it to settle, and a late success pulls its events then; re-sending
   * them meanwhile would publish them twice.
   */
  private async publishAndMark(claimed: Claimed[]): Promise<void> {
    let settled = false;
    const send = this.publish(claimed.flatMap((c) => c.events));
    const mark = () => {
      settled = true;
    };
    send.then(mark, mark);
    try {
      await this.withinPublishTimeout(
        send,
        claimed.reduce((n, c) => n + c.events.length, 0),
      );
    } catch (err) {
      // Refused (e.g. an event too large): nothing is in flight, the documents are tried one by one.
      if (settled) throw err;
      // Meanwhile the documents stay leased to this relay (renewed, as kafkajs may retry for longer
      // than a lease): let go, another instance would send them a second time.
      const renew = () => {
        for (const c of claimed) this.renew(c).catch(() => {});
      };
      renew();
      const renewal = setInterval(renew, this.opts.leaseMs / 2);
      renewal.unref();
      this.late = send
        .then(
          () => Promise.all(claimed.map((c) => this.markPublished(c, false))),
          () => Promise.all(claimed.map((c) => this.release(c).catch(() => {}))),
        )
        .then(() => {})
        .finally(() => clearInterval(renewal));
      this.late.catch(() => {});
      throw err;
    }
    await Promise.all(claimed.map((c) => this.markPublished(c, true)));
  }

  private async withinPublishTimeout(send: Promise<void>, count: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Kafka did not ack ${count} events within ${this.opts.publishTimeoutMs} ms`)),
        this.opts.publishTimeoutMs,
      );
    });
    send.catch(() => {});
    try {
      await Promise.race([send, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async publish(events: EventEnvelope[]): Promise<void> {
    const topics = [...new Set(events.map((e) => topicFor(this.opts.topicPrefix, e.aggregateType)))];
    const missing = topics.filter((t) => !this.readyTopics.has(t));
    if (missing.length > 0) {
      // Auto-create is off on our brokers; an unknown topic would make the idempotent producer retry forever.
      await ensureTopics(this.opts.publisher.kafka, missing, { partitions: this.opts.partitions });
      for (const t of missing) this.readyTopics.add(t);
    }
    await publishEnvelopes(this.opts.publisher.producer, this.opts.topicPrefix, events);
  }

  /**
   * Pull exactly the published ids: events pushed meanwhile stay. If some did arrive, claim the
   * document again at once; their writer may have notified another instance, which found it leased.
   *
   * A busy document (more than one event claimed: writes arrived during a round) keeps its lease
   * through the pull, which reads what arrived since: those events go out in the next round with no
   * claim in between. It is released only once a pull finds nothing left, by a write that matches
   * only an empty outbox (if an event slipped in, the document stays held and is claimed again).
   * A quiet document is pulled and released in one write, as one event needs.
   */
  private async markPublished({ coll, _id, events }: Claimed, mayCarry: boolean): Promise<void> {
    const pull = { $pull: { outbox: { id: { $in: events.map((e) => e.id) } } } };
    const busy = mayCarry && events.length > 1;
    if (busy) this.mayCarry = true;
    const after = await coll.findOneAndUpdate(
      { _id, outboxLeaseOwner: this.owner },
      busy
        ? { ...pull, $set: { outboxLeaseUntil: new Date(Date.now() + this.opts.leaseMs) } }
        : { ...pull, $set: { outboxLeaseUntil: null, outboxLeaseOwner: null } },
      { returnDocument: 'after', projection: busy ? { outbox: 1 } : { 'outbox.id': 1 } },
    );
    if (!after) {
      // Our lease expired and another relay holds the document: still remove what we published.
      await coll.updateOne({ _id }, pull);
      return;
    }
    const waiting = (after.outbox as EventEnvelope[] | undefined) ?? [];
    if (!busy) {
      if (waiting.length > 0) this.hint(_id);
      return;
    }
    if (waiting.length > 0) {
      this.carried.push({ coll, _id, events: waiting });
      return;
    }
    const released = await coll.updateOne(
      { _id, outboxLeaseOwner: this.owner, 'outbox.0': { $exists: false } },
      { $set: { outboxLeaseUntil: null, outboxLeaseOwner: null } },
    );
    if (released.modifiedCount === 0) this.hint(_id);
  }

  private async renew({ coll, _id }: Claimed): Promise<void> {
    await coll.updateOne(
      { _id, outboxLeaseOwner: this.owner },
      { $set: { outboxLeaseUntil: new Date(Date.now() + this.opts.leaseMs) } },
    );
  }

  private async release({ coll, _id }: Claimed): Promise<void> {
    await coll.updateOne(
      { _id, outboxLeaseOwner: this.owner },
      { $set: { outboxLeaseUntil: null, outboxLeaseOwner: null } },
    );
  }
}
