/**
 * `npm run bench -- --only acceptance` (issue 30's figures), every call through the gateway, the
 * order service's provider being the test-mode payments emulator:
 * - 100 customers accept 100 different estimates at once (signature, pm_card_visa): all 201, p50 / p99
 *   (goal p99 < 1 s), and each estimate then accepted with exactly one authorisation at the provider;
 * - 20 racing posts of one acceptance (one Idempotency-Key, a double click): exactly 1 authorisation;
 * - the provider down — answering 503 ({ down: true }), then refusing connections ({ down: 'refuse' }):
 *   the acceptance answers 503 within 5 s, nothing recorded (the view still 'awaiting'), nothing
 *   authorised.
 * The estimates are made as customers make them (a cart each, submitted), and opened as QuickBooks
 * opens them: the QboRecordSynced that accounting-sync publishes once QuickBooks took an estimate.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { callApi } from '@decor/cli/public-api';
import { QboRecordSynced } from '@decor/contracts';
import { createKafka, createPublisher, newEvent, publishEnvelopes } from '@decor/kit';
import { acceptanceProblems, answersCell } from './answers';
import { createProducts } from './availability';
import { createCustomers, fillCart, inBatches, until } from './checkouts';
import { sessionToken } from './orders';
import { type Machine, machineCell } from './report';
import { resultsSection } from './results-section';
import { percentile } from './stats';

export interface AcceptanceStack {
  gatewayUrl: string;
  runId: string;
  jwtSecret: string;
  kafkaBrokers: string[];
  userDb: { url: string; db: string };
  /** The payments emulator the order service uses: Stripe's API and the control API (/__emulator). */
  paymentsUrl: string;
}

/** The provider down one way: the acceptance's answer and what it left. */
export interface DownFigures {
  how: '503' | 'refused';
  status: number;
  ms: number;
  /** The acceptance view's state after it ('awaiting': nothing recorded). */
  state: string;
  /** Authorisations at the provider for that estimate not cancelled. */
  authorised: number;
}

export interface AcceptanceFigures {
  /** One acceptance with nothing else under way: the median of ALONE, one after another. */
  aloneMs: number;
  customers: number;
  /** Status → count of the simultaneous acceptances. */
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  /**
   * When the records were written, from the posts' start (the record's own time): the rest of each
   * answer's time is the way back (until 2026-12-02 12:30Z also the wait for its EstimateAccepted to
   * be on Kafka, which the answer no longer waits for).
   */
  recordedP50: number;
  recordedP99: number;
  /** Of the customers' estimates: accepted, with exactly one authorisation (requires_capture) each. */
  acceptedWithOne: number;
  racers: number;
  raceStatuses: Record<string, number>;
  /** Authorisations at the provider for the raced estimate (any state). */
  raceAuthorisations: number;
  raceAccepted: boolean;
  down: DownFigures[];
  load: number;
}

/** A 1×1 PNG: the drawn signature. */
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const CUSTOMERS = 100;
const RACERS = 20;
const ALONE = 3;

interface Acceptor {
  token: string;
  estimateId: string;
  version: string;
}

/**
 * One acceptance post: its status and time. Node's http client, each customer on a connection of
 * its own as each browser is (as availability.ts's race).
 */
function accept(
  agent: Agent,
  base: string,
  a: Acceptor,
  key: string,
): Promise<{ status: number; ms: number }> {
  const payload = JSON.stringify({
    estimateVersion: a.version,
    signerName: 'Bench Customer',
    signature: SIGNATURE,
    agree: true,
    paymentMethod: 'pm_card_visa',
  });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/api/estimate/${a.estimateId}/acceptance`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${a.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'idempotency-key': key,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const tally = (statuses: number[]) => {
  const out: Record<string, number> = {};
  for (const s of statuses) out[String(s)] = (out[String(s)] ?? 0) + 1;
  return out;
};

/** The provider's PaymentIntents per estimate (the emulator's control API lists them all). */
async function intentsByEstimate(paymentsUrl: string): Promise<Map<string, string[]>> {
  const res = await fetch(`${paymentsUrl}/__emulator/payment-intents`);
  if (!res.ok) throw new Error(`the payments emulator's list answered ${res.status}`);
  const all = (await res.json()) as Array<{ status: string; metadata?: { estimateId?: string } }>;
  const out = new Map<string, string[]>();
  for (const pi of all) {
    const id = pi.metadata?.estimateId;
    if (id) out.set(id, [...(out.get(id) ?? []), pi.status]);
  }
  return out;
}

async function fault(paymentsUrl: string, body: unknown | null): Promise<void> {
  const res = await fetch(`${paymentsUrl}/__emulator/faults`, {
    method: body === null ? 'DELETE' : 'POST',
    headers: body === null ? {} : { 'content-type': 'application/json' },
    body: body === null ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`the payments emulator's faults answered ${res.status}: ${await res.text()}`);
}

/** Customers with an estimate each, Open and offered (its deposit due), ready to accept. */
async function openEstimates(stack: AcceptanceStack, count: number, log: (line: string) => void) {
  const base = stack.gatewayUrl;
  const staff = sessionToken(stack.jwtSecret, randomBytes(12).toString('hex'), 'admin');
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const {
    skus: [sku],
  } = await createProducts(base, staff, `${tag}A`, 1, 10 * count);
  const emails = await createCustomers(stack, count, 'accept');
  log(`acceptance: ${count} customers fill a cart and submit an estimate …`);
  const carts = await inBatches(emails, 10, (email) => fillCart(base, email, [sku as string], 1));
  const eventDate = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const submitted = await inBatches(carts, 10, async ({ token, cartId }) => {
    const res = await callApi(base, '/estimate', {
      method: 'POST',
      token,
      json: { CartId: cartId, status: 'Pending', groupName: `Accept ${cartId}`, eventDate, location: 'Hall' },
    });
    if (res.status !== 201) throw new Error(`submitting answered ${res.status}: ${res.body?.message}`);
    return { token, estimateId: String(res.body.result.id) };
  });
  // As accounting-sync does once QuickBooks took each estimate: the order service opens and offers it.
  const publisher = createPublisher(
    createKafka({ clientId: `${stack.runId}-bench-acceptance`, brokers: stack.kafkaBrokers }),
  );
  await publisher.connect();
  try {
    await publishEnvelopes(
      publisher.producer,
      stack.runId,
      submitted.map((s, i) =>
        newEvent(QboRecordSynced, {
          aggregateId: `estimate:${s.estimateId}`,
          correlationId: `bench-accept-${s.estimateId}`,
          payload: {
            kind: 'estimate',
            recordId: s.estimateId,
            qboId: String(9000 + i),
            syncToken: '0',
            action: 'created',
            revision: 1,
          },
        }),
      ),
    );
  } finally {
    await publisher.disconnect().catch(() => {});
  }
  const ready = await inBatches(submitted, 10, (s) =>
    until(`estimate ${s.estimateId} offered`, 60_000, async () => {
      const view = (await callApi(base, `/estimate/${s.estimateId}/acceptance`, { token: s.token })).body
        ?.result;
      if (view?.state !== 'awaiting') return undefined;
      if (!view.cardRequired) throw new Error('the estimates ask no deposit: nothing to authorise');
      return { ...s, version: String(view.estimateVersion) };
    }),
  );
  log(`acceptance: ${count} estimates Open, each awaiting its acceptance with a deposit`);
  return ready;
}

/** The provider down one way: one acceptance, its answer, then what the order and the provider hold. */
async function whileDown(stack: AcceptanceStack, a: Acceptor, how: DownFigures['how']): Promise<DownFigures> {
  const refuseSeconds = 4;
  await fault(
    stack.paymentsUrl,
    how === '503' ? { down: true, forSeconds: 30 } : { down: 'refuse', forSeconds: refuseSeconds },
  );
  const agent = new Agent({ keepAlive: false });
  let answer: { status: number; ms: number };
  try {
    answer = await accept(agent, stack.gatewayUrl, a, `down-${how}`);
  } finally {
    agent.destroy();
    if (how === '503') await fault(stack.paymentsUrl, null);
  }
  // The refusing port listens again after its seconds (its control API was refused meanwhile too).
  if (how === 'refused')
    await until('the payments emulator back', 30_000, async () =>
      (await fetch(`${stack.paymentsUrl}/__emulator`)
        .then((r) => r.ok)
        .catch(() => false))
        ? true
        : undefined,
    );
  const view = (await callApi(stack.gatewayUrl, `/estimate/${a.estimateId}/acceptance`, { token: a.token }))
    .body?.result;
  const intents = (await intentsByEstimate(stack.paymentsUrl)).get(a.estimateId) ?? [];
  return {
    how,
    status: answer.status,
    ms: answer.ms,
    state: String(view?.state),
    authorised: intents.filter((s) => s !== 'canceled').length,
  };
}

export async function measureAcceptance(
  stack: AcceptanceStack,
  log: (line: string) => void,
): Promise<AcceptanceFigures> {
  const load = os.loadavg()[0] ?? 0;
  const acceptors = await openEstimates(stack, CUSTOMERS + 3 + ALONE, log);
  const many = acceptors.slice(0, CUSTOMERS);
  const [raced, down503, downRefused] = acceptors.slice(CUSTOMERS) as [Acceptor, Acceptor, Acceptor];
  const alone = acceptors.slice(CUSTOMERS + 3);

  // 0. One at a time: what a single acceptance costs, for comparison.
  log(`acceptance: ${ALONE} acceptances one after another …`);
  const aloneMs: number[] = [];
  for (const [i, a] of alone.entries()) {
    const soloAgent = new Agent({ keepAlive: false });
    const answer = await accept(soloAgent, stack.gatewayUrl, a, `alone-${i}`);
    soloAgent.destroy();
    if (answer.status !== 201) throw new Error(`a single acceptance answered ${answer.status}`);
    aloneMs.push(answer.ms);
    await sleep(500); // its signed agreement's job runs meanwhile
  }

  // 1. 100 customers accept at once.
  log(`acceptance: ${CUSTOMERS} customers accept ${CUSTOMERS} estimates at once …`);
  const agent = new Agent({ keepAlive: false });
  const firedAt = Date.now();
  const answers = await Promise.all(many.map((a, i) => accept(agent, stack.gatewayUrl, a, `many-${i}`)));
  agent.destroy();
  const ms = answers.map((a) => a.ms);
  // Their record, and the provider's authorisations (each answer was given once the record was written).
  const intents = await intentsByEstimate(stack.paymentsUrl);
  const states = await inBatches(many, 10, async (a) => {
    const view = (await callApi(stack.gatewayUrl, `/estimate/${a.estimateId}/acceptance`, { token: a.token }))
      .body?.result;
    const mine = intents.get(a.estimateId) ?? [];
    return {
      right: view?.state === 'accepted' && mine.length === 1 && mine[0] === 'requires_capture',
      // When the order service wrote the record (its time), from the posts' start.
      recordedMs: view?.accepted?.at ? Date.parse(view.accepted.at) - firedAt : Number.NaN,
    };
  });
  const recorded = states.map((st) => st.recordedMs).filter(Number.isFinite);

  // 2. 20 racing posts of one acceptance.
  await sleep(1_000);
  log(`acceptance: ${RACERS} racing posts of one acceptance (one key) …`);
  const raceAgent = new Agent({ keepAlive: false });
  const race = await Promise.all(
    Array.from({ length: RACERS }, () => accept(raceAgent, stack.gatewayUrl, raced, 'double-click')),
  );
  raceAgent.destroy();
  const raceView = (
    await callApi(stack.gatewayUrl, `/estimate/${raced.estimateId}/acceptance`, { token: raced.token })
  ).body?.result;

  // 3. The provider down: answering 503, then refusing connections.
  log('acceptance: the provider down (503, then connections refused) …');
  const down = [await whileDown(stack, down503, '503'), await whileDown(stack, downRefused, 'refused')];

  return {
    aloneMs: percentile(aloneMs, 50),
    customers: CUSTOMERS,
    statuses: tally(answers.map((a) => a.status)),
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: Math.max(...ms),
    acceptedWithOne: states.filter((st) => st.right).length,
    recordedP50: percentile(recorded, 50),
    recordedP99: percentile(recorded, 99),
    racers: RACERS,
    raceStatuses: tally(race.map((r) => r.status)),
    raceAuthorisations: ((await intentsByEstimate(stack.paymentsUrl)).get(raced.estimateId) ?? []).length,
    raceAccepted: raceView?.state === 'accepted',
    down,
    load,
  };
}

const r0 = (n: number) => Math.round(n).toLocaleString('en-US');
const statusText = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, n]) => `${n} × ${k}`)
    .join(', ');
const downText = (d: DownFigures) =>
  `${d.how === '503' ? 'answering 503' : 'refusing connections'}: ${d.status} in ${r0(d.ms)} ms, view ${d.state}, ${d.authorised} authorised`;

export function formatAcceptance(f: AcceptanceFigures): string {
  return [
    '',
    `Online acceptance (1-min load before ${f.load.toFixed(2)})`,
    `  one alone: ${r0(f.aloneMs)} ms (median of ${ALONE}, one after another)`,
    `  ${f.customers} customers accept at once: ${statusText(f.statuses)}; p50 ${r0(f.p50)} ms, p99 ${r0(f.p99)} ms, max ${r0(f.max)} ms (goal p99 < 1 s), recorded by p50 ${r0(f.recordedP50)} / p99 ${r0(f.recordedP99)} ms; ${f.acceptedWithOne} accepted with exactly one authorisation`,
    `  ${f.racers} racing posts of one acceptance: ${statusText(f.raceStatuses)}; ${f.raceAuthorisations} authorisation(s) at the provider; ${f.raceAccepted ? 'accepted' : 'NOT accepted'}`,
    `  provider down (goal 503 within 5 s, nothing recorded, nothing authorised): ${f.down.map(downText).join('; ')}`,
  ].join('\n');
}

const SECTION = '## Online acceptance (`--only acceptance`)';
const HEADER = [
  '| when (UTC) | machine | node | load (1 min) before | one alone ms | 100 at once: 201s, accepted with one authorisation | p50 / p99 / max ms | recorded by p50 / p99 ms | 20 racing posts: answers, authorisations | provider down (503 / refused): answer, ms, view, authorised |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
const ROW = /^\| acceptance \d{4}-/;
const METHOD = [
  'Method: `npm run bench -- --only acceptance` (infra/bench/src/acceptance.ts), every call through the',
  'gateway; the order service authorises deposits at the test-mode payments emulator (in memory). 106 new',
  'customers each put 1 unit of a product in their cart and submit an estimate; the estimates are opened as',
  "accounting-sync opens them once QuickBooks took them (QboRecordSynced on the run's accounting topic), which",
  'offers them for acceptance (25 % deposit). Then 100 customers post their acceptance (typed name, a PNG',
  'signature, pm_card_visa; an Idempotency-Key each) all at once, each on a connection of its own; 20 posts of',
  "one customer's acceptance under one key race; and one acceptance each while the emulator answers 503 and",
  "while its port refuses connections. Counted from the emulator's PaymentIntents and the acceptance view;",
  '"recorded by" is each acceptance record\'s own time (accepted.at) from the posts\' start.',
  'Wrong answers fail the part: not all 201, an estimate without exactly one authorisation, the race with',
  'other than 1 authorisation, the provider down answered other than 503 within 5 s, recorded or authorised.',
  'Goal: p99 < 1 s for the 100 at once.',
].join('\n');

export function acceptanceRow(machine: Machine, f: AcceptanceFigures): string {
  const cells = [
    `acceptance ${machine.date}`,
    machineCell(machine),
    machine.node,
    f.load.toFixed(2),
    r0(f.aloneMs),
    answersCell(acceptanceProblems(f), `${f.statuses['201'] ?? 0} / ${f.customers}, ${f.acceptedWithOne}`),
    `${r0(f.p50)} / ${r0(f.p99)} / ${r0(f.max)}`,
    `${r0(f.recordedP50)} / ${r0(f.recordedP99)}`,
    `${statusText(f.raceStatuses)}; ${f.raceAuthorisations}`,
    f.down.map((d) => `${d.status}, ${r0(d.ms)}, ${d.state}, ${d.authorised}`).join(' / '),
  ];
  return `| ${cells.join(' | ')} |`;
}

const section = resultsSection({ title: SECTION, header: HEADER, row: ROW, method: METHOD, keep: 20 });
export const acceptanceRows = section.rows;
export const writeAcceptanceRows = section.write;
