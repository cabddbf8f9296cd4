/**
 * Bench hook for live order status (issue 9): one gateway as its own process holds 500 open event
 * streams (450 customers, 50 staff) and we read its memory from its /metrics; then 500 order changes
 * are published onto the order topic at a steady rate, and the time from publishing to arrival on the
 * streams gives latency p50/p99. Skipped unless ORDER_STREAM_BENCH=1:
 *
 *   ORDER_STREAM_BENCH=1 npx jest gateway/test/order-stream-bench
 *
 * Options (env): ORDER_STREAM_BENCH_STREAMS (500), ORDER_STREAM_BENCH_CHANGES (500),
 * ORDER_STREAM_BENCH_RATE (changes per second, 50). The clients run in the jest process on the same
 * machine, so the figures include their reading time.
 */
import { randomBytes } from 'node:crypto';
import { EstimateStatusChanged } from '@decor/contracts';
import { freePort, testEndpoints } from '@decor/infra';
import { createKafka, createPublisher, ensureTopics, newEvent, publishEnvelopes, topicFor } from '@decor/kit';
import { RUN_ID } from '@decor/kit/src/testing';
import { createSigner } from 'fast-jwt';
import { type ServiceProcess, startServiceProcess } from './support/processes';
import { openSse, type SseStream } from './support/sse-client';
import { JWT_SECRET } from './support/stack';

const enabled = process.env.ORDER_STREAM_BENCH === '1';
const STREAMS = Number(process.env.ORDER_STREAM_BENCH_STREAMS ?? 500);
const CHANGES = Number(process.env.ORDER_STREAM_BENCH_CHANGES ?? 500);
const RATE = Number(process.env.ORDER_STREAM_BENCH_RATE ?? 50);
const STAFF = Math.round(STREAMS / 10);

jest.setTimeout(300_000);

const newId = () => randomBytes(12).toString('hex');
const sign = createSigner({ key: JWT_SECRET, algorithm: 'HS256', expiresIn: 3_600_000 });
const tokenOf = (id: string, permissions: 'customer' | 'admin') =>
  sign({ sub: id, permissions, email: `${permissions}-${id}@decor.example` });

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return Number(line?.split(' ').at(-1));
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

(enabled ? describe : describe.skip)('live order status bench', () => {
  let gateway: ServiceProcess | undefined;
  const streams: SseStream[] = [];
  const kafka = createKafka({ clientId: `${RUN_ID}-order-bench`, brokers: testEndpoints().kafkaBrokers });
  const publisher = createPublisher(kafka);

  afterAll(async () => {
    for (const s of streams) s.close();
    await gateway?.stop();
    await publisher.disconnect().catch(() => {});
  });

  it(`holds ${STREAMS} streams and delivers ${CHANGES} changes`, async () => {
    await ensureTopics(kafka, [topicFor(RUN_ID, 'order')]);
    await publisher.connect();
    gateway = await startServiceProcess('gateway', 'gateway/src/main.ts', {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      KAFKA_BROKERS: testEndpoints().kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: RUN_ID,
      GATEWAY_CACHE_TTL_MS: '0',
      ORDER_STREAM_MAX_STREAMS: String(STREAMS + 10),
    });
    const url = gateway.url;
    const events = `${url}/api/orders/events`;
    // The feed starts with the first stream: open and close one, then measure the idle process.
    const first = await openSse(events, { token: tokenOf(newId(), 'admin') });
    await first.until((m) => m.some((e) => e.event === 'ready'), 30_000);
    first.close();
    await new Promise((r) => setTimeout(r, 2_000));
    const before = {
      rss: await metric(url, 'process_resident_memory_bytes'),
      heap: await metric(url, 'nodejs_heap_size_used_bytes'),
    };

    const customers = Array.from({ length: STREAMS - STAFF }, () => newId());
    const staff = Array.from({ length: STAFF }, () => newId());
    const byCustomer = new Map<string, SseStream>();
    const openedAt = Date.now();
    for (let i = 0; i < STREAMS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, STREAMS - i) }, async (_, j) => {
          const n = i + j;
          const customer = customers[n];
          const s = await openSse(events, {
            token: customer
              ? tokenOf(customer, 'customer')
              : tokenOf(staff[n - customers.length] as string, 'admin'),
          });
          if (customer) byCustomer.set(customer, s);
          return s;
        }),
      );
      streams.push(...batch);
    }
    await Promise.all(streams.map((s) => s.until((m) => m.some((e) => e.event === 'ready'), 60_000)));
    const openMs = Date.now() - openedAt;
    expect(streams.every((s) => s.status === 200)).toBe(true);
    expect(await metric(url, 'gateway_order_streams')).toBe(STREAMS);
    await new Promise((r) => setTimeout(r, 2_000));
    const after = {
      rss: await metric(url, 'process_resident_memory_bytes'),
      heap: await metric(url, 'nodejs_heap_size_used_bytes'),
    };

    // Changes at a steady rate, each to a customer in turn; staff streams get every one.
    const sentAt = new Map<string, number>();
    const owners = new Map<string, string>();
    const started = Date.now();
    for (let n = 0; n < CHANGES; n++) {
      const due = started + (n * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const id = newId();
      const owner = customers[n % customers.length] as string;
      owners.set(id, owner);
      const event = newEvent(EstimateStatusChanged, {
        aggregateId: id,
        correlationId: `bench-${n}`,
        payload: {
          order: {
            orderType: 'estimate',
            id,
            docNumber: String(1001 + n),
            userId: owner,
            cartId: newId(),
            status: 'Open',
            hasBeenModified: false,
            isInQbo: true,
            qboId: String(n),
            customer: { email: 'c@decor.example', displayName: 'C' },
            details: {},
            lines: [],
            subtotalCents: 0,
            truckingCents: 0,
            taxCents: 0,
            totalCents: 0,
            revision: 1,
          },
          from: 'Pending',
          actor: { role: 'staff', userId: null },
        },
      });
      sentAt.set(id, Date.now());
      await publishEnvelopes(publisher.producer, RUN_ID, [event]);
    }
    const staffStreams = streams.slice(customers.length);
    await Promise.all(
      staffStreams.map((s) => s.until((m) => m.filter((e) => e.event === 'order').length >= CHANGES, 60_000)),
    );

    // Per change: arrival at its owner's stream, and at the last of all streams that get it.
    const toOwner: number[] = [];
    const toAll: number[] = [];
    const arrivals = new Map<string, number[]>();
    for (const s of streams) {
      for (const m of s.messages) {
        if (m.event !== 'order') continue;
        const { id } = JSON.parse(m.data) as { id: string };
        const list = arrivals.get(id) ?? [];
        list.push(m.at);
        arrivals.set(id, list);
      }
    }
    for (const [id, sent] of sentAt) {
      const ownerStream = byCustomer.get(owners.get(id) as string) as SseStream;
      const own = ownerStream.messages.find((m) => m.event === 'order' && m.data.includes(id));
      expect(own).toBeDefined();
      toOwner.push((own?.at ?? Number.NaN) - sent);
      const all = arrivals.get(id) ?? [];
      expect(all).toHaveLength(STAFF + 1);
      toAll.push(Math.max(...all) - sent);
    }
    // No customer got another customer's change.
    for (const [customer, s] of byCustomer) {
      for (const m of s.messages.filter((e) => e.event === 'order')) {
        expect(owners.get((JSON.parse(m.data) as { id: string }).id)).toBe(customer);
      }
    }
    toOwner.sort((a, b) => a - b);
    toAll.sort((a, b) => a - b);
    const figures = {
      streams: STREAMS,
      staff: STAFF,
      openAllMs: openMs,
      rssMb: `${mb(before.rss)} → ${mb(after.rss)} (+${mb(after.rss - before.rss)})`,
      heapMb: `${mb(before.heap)} → ${mb(after.heap)} (+${mb(after.heap - before.heap)})`,
      perStreamKb: ((after.rss - before.rss) / STREAMS / 1024).toFixed(1),
      changes: CHANGES,
      ratePerS: RATE,
      ownerP50P99Ms: `${percentile(toOwner, 50)} / ${percentile(toOwner, 99)}`,
      allStreamsP50P99Ms: `${percentile(toAll, 50)} / ${percentile(toAll, 99)}`,
      maxMs: toAll.at(-1),
    };
    console.log(`live order status bench ${new Date().toISOString()}\n${JSON.stringify(figures, null, 2)}`);
    expect(percentile(toAll, 99)).toBeLessThan(2_000);
  });
});
