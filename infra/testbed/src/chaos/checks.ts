/**
 * What the data itself says after the faults: the order and cart databases (over the wire protocol),
 * the mail catcher's inbox, the QuickBooks emulator's records, Kafka's dead-letter topics and consumer
 * lag, and every process's /readyz. The inbox keeps at most 1,000 messages, so a collector drains it
 * during the run (reads, then deletes exactly what it read).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fetchTopicOffsets } from '@decor/kit';
import type { MailCatcherInfo } from '@decor/stack';
import { Kafka, logLevel } from 'kafkajs';
import mongoose from 'mongoose';
import type { NpmStartStack } from '../npm-start';
import type { Load } from './load';
import type { Expectation, RunCheck } from './table';

export interface CaughtMail {
  ID: string;
  MessageID: string;
  Subject: string;
  To: Array<{ Address: string }>;
}

export class MailCollector {
  readonly mails = new Map<string, CaughtMail>();
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(private readonly apiUrl: string) {}

  start(): void {
    this.timer = setInterval(() => void this.collect(), 5_000);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass; a frozen catcher (the SMTP fault) just makes it time out until the next. */
  async collect(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (;;) {
        const res = await fetch(`${this.apiUrl}/api/v1/messages?limit=500`, {
          signal: AbortSignal.timeout(3_000),
        });
        const page = (await res.json()) as { messages: CaughtMail[] };
        if (page.messages.length === 0) return;
        for (const m of page.messages) this.mails.set(m.ID, m);
        await fetch(`${this.apiUrl}/api/v1/messages`, {
          method: 'DELETE',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ IDs: page.messages.map((m) => m.ID) }),
          signal: AbortSignal.timeout(3_000),
        });
      }
    } catch {
      // next pass
    } finally {
      this.busy = false;
    }
  }

  /** Resends the catcher dropped as already taken (Mailpit's SMTPIgnored; `npm start`'s catcher drops them). */
  async ignoredResends(): Promise<number> {
    const res = await fetch(`${this.apiUrl}/api/v1/info`, { signal: AbortSignal.timeout(3_000) });
    return ((await res.json()) as MailCatcherInfo).RuntimeStats.SMTPIgnored;
  }
}

interface EstimateRow {
  _id: unknown;
  docNumber: string;
  cartId: string;
}

export interface Snapshot {
  estimates: EstimateRow[];
  checkedOutCarts: Set<string>;
  qboDocNumbers: string[];
  mails: CaughtMail[];
  /** Resends of a Message-ID the catcher had taken (a send whose reply was lost), dropped by it. */
  ignoredResends: number;
  lag: { total: number; groups: Record<string, number> };
  deadLetters: Record<string, number>;
  notReady: string[];
}

async function mongoRows(mongoUrl: string): Promise<Pick<Snapshot, 'estimates' | 'checkedOutCarts'>> {
  const conn = await mongoose.createConnection(mongoUrl, { serverSelectionTimeoutMS: 10_000 }).asPromise();
  try {
    const estimates = (await conn
      .useDb('order')
      .collection('estimates')
      .find({}, { projection: { docNumber: 1, cartId: 1 } })
      .toArray()) as unknown as EstimateRow[];
    const owners = await conn
      .useDb('cart')
      .collection('customer_carts')
      .find({}, { projection: { carts: 1 } })
      .toArray();
    const checkedOutCarts = new Set<string>();
    for (const o of owners)
      for (const c of (o.carts ?? []) as Array<{ id: string; didCheckOut?: boolean }>)
        if (c.didCheckOut) checkedOutCarts.add(c.id);
    return { estimates, checkedOutCarts };
  } finally {
    await conn.close();
  }
}

async function qboDocNumbers(stack: NpmStartStack): Promise<string[]> {
  const res = await fetch(`${stack.qboUrl}/__emulator/realms/${stack.realmId}/records/Estimate`, {
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`the emulator's records answered ${res.status}`);
  return ((await res.json()) as Array<{ DocNumber?: string }>).map((e) => String(e.DocNumber ?? ''));
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Lag of the services' consumer groups (not the per-process ones named by a uuid), and dead letters. */
async function kafkaState(brokers: string[]): Promise<Pick<Snapshot, 'lag' | 'deadLetters'>> {
  const admin = new Kafka({
    clientId: 'decor-chaos-checks',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3_000,
    requestTimeout: 10_000,
    retry: { retries: 2 },
  }).admin();
  await admin.connect();
  try {
    const topics = await admin.listTopics();
    const high = new Map<string, number>();
    const deadLetters: Record<string, number> = {};
    for (const topic of topics.filter((t) => !t.startsWith('__'))) {
      const offsets = await fetchTopicOffsets(admin, topic);
      let messages = 0;
      for (const p of offsets) {
        high.set(`${topic}/${p.partition}`, Number(p.high));
        messages += Number(p.high) - Number(p.low);
      }
      if (topic.includes('.dlq.')) deadLetters[topic] = messages;
    }
    const { groups } = await admin.listGroups();
    const lag: Record<string, number> = {};
    for (const { groupId } of groups) {
      if (!groupId.startsWith('decor.') || UUID.test(groupId)) continue;
      let sum = 0;
      for (const t of await admin.fetchOffsets({ groupId })) {
        for (const p of t.partitions) {
          const committed = Number(p.offset);
          if (committed < 0) continue;
          sum += Math.max(0, (high.get(`${t.topic}/${p.partition}`) ?? committed) - committed);
        }
      }
      lag[groupId] = sum;
    }
    return { lag: { total: Object.values(lag).reduce((a, b) => a + b, 0), groups: lag }, deadLetters };
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

export async function notReady(stack: NpmStartStack): Promise<string[]> {
  const answers = await Promise.all(
    stack.processes.map(async (p) => {
      const ok = await fetch(p.readyUrl, { signal: AbortSignal.timeout(3_000) })
        .then((r) => r.status === 200)
        .catch(() => false);
      return ok ? [] : [p.name];
    }),
  );
  return answers.flat();
}

export async function snapshot(stack: NpmStartStack, mail: MailCollector): Promise<Snapshot> {
  await mail.collect();
  const [rows, qbo, kafka, down, ignoredResends] = await Promise.all([
    mongoRows(stack.mongoUrl),
    qboDocNumbers(stack),
    kafkaState(stack.kafkaBrokers),
    notReady(stack),
    mail.ignoredResends(),
  ]);
  return {
    ...rows,
    qboDocNumbers: qbo,
    mails: [...mail.mails.values()],
    ignoredResends,
    ...kafka,
    notReady: down,
  };
}

const count = <T>(xs: T[], pred: (x: T) => boolean) => xs.reduce((n, x) => n + (pred(x) ? 1 : 0), 0);

/** Each thing the load was told happened, and how often the data holds it. */
export function expectations(load: Load, s: Snapshot): Expectation[] {
  const out: Expectation[] = [];
  const mailsTo = (to: string, subject: RegExp) =>
    count(s.mails, (m) => subject.test(m.Subject) && m.To.some((a) => a.Address === to));
  for (const a of load.accepted.values()) {
    const doc = a.docNumber;
    out.push(
      {
        phase: a.phase,
        what: 'estimate',
        key: a.cartId,
        found: count(s.estimates, (e) => e.cartId === a.cartId),
      },
      {
        phase: a.phase,
        what: 'cart checked out',
        key: a.cartId,
        found: s.checkedOutCarts.has(a.cartId) ? 1 : 0,
      },
      {
        phase: a.phase,
        what: 'e-mail: received',
        key: doc,
        found: mailsTo(a.email, new RegExp(`estimate #${doc}\\) was received`)),
      },
      {
        phase: a.phase,
        what: 'e-mail: new estimate to staff',
        key: doc,
        found: count(s.mails, (m) => new RegExp(`^New estimate #${doc} from`).test(m.Subject)),
      },
    );
  }
  for (const sent of load.sent.values()) {
    const a = load.accepted.get(sent.estimateId);
    if (!a) continue;
    out.push(
      {
        phase: sent.phase,
        what: 'QuickBooks document',
        key: a.docNumber,
        found: count(s.qboDocNumbers, (d) => d === a.docNumber),
      },
      {
        phase: sent.phase,
        what: 'e-mail: approved',
        key: a.docNumber,
        found: mailsTo(a.email, new RegExp(`estimate #${a.docNumber} was approved`)),
      },
    );
  }
  return out;
}

/** The checks over the whole run. */
export function runChecks(load: Load, s: Snapshot): RunCheck[] {
  const dupes = <T>(xs: T[]) => {
    const seen = new Map<T, number>();
    for (const x of xs) seen.set(x, (seen.get(x) ?? 0) + 1);
    return [...seen.entries()].filter(([, n]) => n > 1).map(([x]) => x);
  };
  const docDupes = dupes(s.estimates.map((e) => e.docNumber));
  const cartDupes = dupes(s.estimates.map((e) => e.cartId));
  const idDupes = dupes(s.mails.map((m) => m.MessageID).filter(Boolean));
  const dlq = Object.entries(s.deadLetters).filter(([, n]) => n > 0);
  const lagging = Object.entries(s.lag.groups).filter(([, n]) => n > 0);
  const unsent = load.unsent();
  return [
    {
      name: 'unique DocNumbers',
      ok: docDupes.length === 0,
      detail: `${s.estimates.length} estimates in the order database, ${docDupes.length} DocNumbers used twice${docDupes.length ? ` (${docDupes.slice(0, 5).join(', ')})` : ''}`,
    },
    {
      name: 'each cart checked out once',
      ok: cartDupes.length === 0,
      detail: `${cartDupes.length} carts with more than one estimate`,
    },
    {
      name: 'each e-mail once',
      ok: idDupes.length === 0,
      detail: `${s.mails.length} e-mails caught, ${idDupes.length} Message-IDs twice${idDupes.length ? ` (${idDupes.slice(0, 3).join(', ')})` : ''}, ${s.ignoredResends} resends of a Message-ID already taken dropped by the catcher`,
    },
    {
      name: 'dead-letter topics empty',
      ok: dlq.length === 0,
      detail:
        dlq.length === 0
          ? `${Object.keys(s.deadLetters).length} topics, all empty`
          : dlq.map(([t, n]) => `${t}: ${n}`).join(', '),
    },
    {
      name: 'consumer lag 0',
      ok: s.lag.total === 0,
      detail:
        lagging.length === 0
          ? `${Object.keys(s.lag.groups).length} groups caught up`
          : lagging.map(([g, n]) => `${g}: ${n}`).join(', '),
    },
    {
      name: 'every process answers /readyz',
      ok: s.notReady.length === 0,
      detail: s.notReady.length === 0 ? 'all ready' : `not ready: ${s.notReady.join(', ')}`,
    },
    {
      name: 'every accepted estimate sent to QuickBooks',
      ok: unsent.length === 0,
      detail: `${load.accepted.size} accepted, ${load.sent.size} taken by QuickBooks' queue${unsent.length ? `, ${unsent.length} never taken` : ''}`,
    },
  ];
}

/** Polls until nothing is missing, lag is 0 and every process is ready (or `timeoutMs` passes). */
export async function settle(
  stack: NpmStartStack,
  load: Load,
  mail: MailCollector,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<Snapshot> {
  const deadline = Date.now() + timeoutMs;
  let last: Snapshot | undefined;
  let said = '';
  let saidAt = 0;
  const say = (line: string) => {
    // Once a change, or every 30 s while nothing changes.
    if (line === said && Date.now() - saidAt < 30_000) return;
    said = line;
    saidAt = Date.now();
    log(line);
  };
  for (;;) {
    try {
      last = await snapshot(stack, mail);
      const missing = expectations(load, last).filter((e) => e.found === 0);
      if (missing.length === 0 && last.lag.total === 0 && last.notReady.length === 0) return last;
      if (Date.now() > deadline) return last;
      say(
        `settling: ${missing.length} not there yet (${[...new Set(missing.map((m) => m.what))].join(', ') || '–'}), lag ${last.lag.total}, not ready: ${last.notReady.join(', ') || '–'}`,
      );
    } catch (err) {
      if (Date.now() > deadline) {
        if (last) return last;
        throw err;
      }
      say(`settling: ${(err as Error).message}`);
    }
    await sleep(5_000);
  }
}
