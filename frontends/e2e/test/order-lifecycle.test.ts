/**
 * Issue 14 §2 and §3 through the gateway's API (no browser), against the whole product with
 * accounting-sync and the QuickBooks emulator:
 * - every cell of the lifecycle tables (contracts' lifecycle.ts) that an HTTP call reaches is asked
 *   of the service that receives it — the order service (PUT /estimate|invoice/{id}, POST /invoice) or
 *   accounting-sync (POST/PUT /qbo/estimate|invoice) — by staff and by the customer: a refusal answers
 *   the table's code as status and sentence and changes nothing (the order as read, no sync job); an
 *   allowed action goes through;
 * - an update in QuickBooks clears 'Pending Update' after an edit of a field the QuickBooks document
 *   shows (Location) and of one it does not (Room), and the customer's live stream carries it.
 */
import {
  type Actor,
  type LifecycleFacts,
  type OrderType,
  permission,
  refusalHttpStatus,
  refusalMessage,
  UI_ACTIONS,
  type UiAction,
} from '@decor/contracts';
import { openSse, orderEvents, type SseStream } from '@decor/gateway/testing';
import { type Answer, call, eventually } from '@decor/kit/testing';
import { CUSTOMER, orderSetup } from './support/orders';
import { waitForDemoCatalogue } from './support/product';
import { emulatorCall, type QuickBooksStack, startQuickBooksStack } from './support/quickbooks';

jest.setTimeout(600_000);

let stack: QuickBooksStack;
let api: string;
let setup: ReturnType<typeof orderSetup>;
let staffToken: string;
let customerToken: string;
let realmId: string;
const streams: SseStream[] = [];

beforeAll(async () => {
  stack = await startQuickBooksStack();
  await waitForDemoCatalogue(stack);
  api = `${stack.gatewayUrl}/api`;
  setup = orderSetup(api);
  staffToken = await setup.connectQuickBooks('Lifecycle Co');
  customerToken = (await setup.signInApi(CUSTOMER)).token;
  realmId = (await call(api, '/qbo/status', { token: staffToken })).body.result.realmId;
}, 300_000);

afterAll(async () => {
  for (const s of streams) s.close();
  await stack?.stop();
});

interface Ref {
  type: OrderType;
  id: string;
}
type Who = 'staff' | 'customer';
const ACTORS: Record<Who, Actor> = {
  staff: { role: 'staff', userId: null },
  customer: { role: 'customer', userId: null },
};
const tokenOf = (who: Who) => (who === 'staff' ? staffToken : customerToken);
const today = () => new Date().toISOString().slice(0, 10);

// biome-ignore lint/suspicious/noExplicitAny: the order view as the API answers it
async function read(o: Ref): Promise<any> {
  const answer = await call(api, `/${o.type}/${o.id}`, { token: staffToken });
  expect(answer.status).toBe(200);
  return answer.body.result;
}

// biome-ignore lint/suspicious/noExplicitAny: the order view as the API answers it
const factsOf = (type: OrderType, view: any): LifecycleFacts => ({
  orderType: type,
  status: view.status,
  isInQbo: view.isInQbo,
  hasBeenModified: view.hasBeenModified,
  hasInvoice: view.hasInvoice ?? false,
  details: { eventDate: view.eventDate },
});

let edits = 0;
/**
 * The HTTP call that asks `action` of the order, at the service that receives it; null where no call
 * asks it of this document type (an invoice's invoice, an estimate's completion).
 */
function ask(o: Ref, action: UiAction, token: string): Promise<Answer> | null {
  const path = `/${o.type}/${o.id}`;
  switch (action) {
    case 'edit':
      edits += 1;
      return call(api, path, { method: 'PUT', token, json: { room: `Room ${edits}` } });
    case 'requestInvoice':
      if (o.type !== 'estimate') return null;
      return call(api, '/invoice', { method: 'POST', token, json: { EstimateId: o.id } });
    case 'sendToQbo':
      return call(api, `/qbo/${o.type}`, { method: 'POST', token, json: { id: o.id } });
    case 'updateInQbo':
      return call(api, `/qbo/${o.type}/`, { method: 'PUT', token, json: { id: o.id } });
    case 'complete':
      if (o.type !== 'invoice') return null;
      return call(api, path, { method: 'PUT', token, json: { status: 'Completed' } });
    case 'cancel':
      return call(api, path, { method: 'PUT', token, json: { status: 'Voided' } });
  }
}

const jobsOf = async (o: Ref) =>
  (await stack.accountingSync.ctx.syncQueue.getJobs())
    .filter((job) => job?.data.recordId === o.id)
    .map((job) => job.id)
    .sort();

/**
 * Waits until accounting-sync's projection of the order events shows the order as the order service
 * does (staff's screens learn a change from those same events, so they are never ahead of it), and
 * until what an earlier step started in QuickBooks (a cancelled order rejected or voided there) has
 * landed and come back.
 */
async function projected(o: Ref) {
  await eventually(
    async () => {
      const view = await read(o);
      const rec = await stack.accountingSync.ctx.records.findById(`${o.type}:${o.id}`).lean();
      const data = rec?.data as { status?: string; hasBeenModified?: boolean; isInQbo?: boolean } | undefined;
      const pending = await stack.accountingSync.ctx.syncQueue.getJobs([
        'waiting',
        'active',
        'delayed',
        'prioritized',
      ]);
      return data?.status === view.status &&
        data?.hasBeenModified === view.hasBeenModified &&
        data?.isInQbo === view.isInQbo &&
        (rec?.syncToken ?? null) === view.syncToken &&
        !pending.some((job) => job?.data.recordId === o.id)
        ? true
        : undefined;
    },
    60_000,
    `accounting-sync's projection of ${o.type} ${o.id}, its jobs done`,
  );
}

/** The cells asked, as `<type> <status> <action>`. */
const asked = new Set<string>();

/** Every action the table refuses `who` on this order now: the table's answer, nothing changed. */
async function refusals(o: Ref, who: Who) {
  await projected(o);
  const before = await read(o);
  const facts = factsOf(o.type, before);
  for (const action of UI_ACTIONS) {
    const answer = permission(facts, { action }, ACTORS[who], today());
    if (!('refuse' in answer)) continue;
    // accounting-sync's routes are staff's: a customer never reaches its lifecycle.
    if (who === 'customer' && (action === 'sendToQbo' || action === 'updateInQbo')) continue;
    const jobs = await jobsOf(o);
    const sent = ask(o, action, tokenOf(who));
    if (!sent) continue;
    const reply = await sent;
    const cell = `${o.type} ${facts.status}${facts.hasBeenModified ? ' (modified)' : ''} ${action} by ${who}`;
    expect({ cell, status: reply.status, message: reply.body?.message }).toEqual({
      cell,
      status: refusalHttpStatus(answer.refuse),
      message: refusalMessage(answer.refuse, facts.status),
    });
    expect(await read(o)).toEqual(before);
    expect(await jobsOf(o)).toEqual(jobs);
    asked.add(`${o.type} ${facts.status} ${action}`);
  }
}

const walk = async (o: Ref) => {
  await refusals(o, 'staff');
  await refusals(o, 'customer');
};

/** Staff ask an action the table allows now: it goes through (the QuickBooks ones as a job). */
async function allowed(o: Ref, action: UiAction): Promise<Answer> {
  await projected(o);
  const facts = factsOf(o.type, await read(o));
  const cell = `${o.type} ${facts.status} ${action}`;
  expect({ cell, answer: permission(facts, { action }, ACTORS.staff, today()) }).toEqual({
    cell,
    answer: { to: expect.any(String) },
  });
  const reply = await (ask(o, action, staffToken) as Promise<Answer>);
  expect({ cell, status: [200, 201, 202].includes(reply.status), body: reply.body }).toEqual({
    cell,
    status: true,
    body: reply.body,
  });
  asked.add(cell);
  return reply;
}

/** Waits until the order reads `status` and `hasBeenModified` (QuickBooks' outcomes come as events). */
async function becomes(o: Ref, status: string, hasBeenModified = false) {
  await eventually(
    async () => {
      const view = await read(o);
      return view.status === status && view.hasBeenModified === hasBeenModified ? true : undefined;
    },
    60_000,
    `${o.type} ${o.id} ${status}${hasBeenModified ? ' (modified)' : ''}`,
  );
}

const newEstimate = async (): Promise<Ref> => ({
  type: 'estimate',
  id: (await setup.submitEstimate(customerToken)).id,
});

async function openEstimate(): Promise<Ref> {
  const o = await newEstimate();
  await allowed(o, 'sendToQbo');
  await becomes(o, 'Open');
  return o;
}

async function invoiceOf(estimate: Ref): Promise<Ref> {
  const reply = await allowed(estimate, 'requestInvoice');
  await becomes(estimate, 'Closed');
  return { type: 'invoice', id: reply.body.result.id };
}

/**
 * A Pending order's way to QuickBooks, walked at each step: edited while Pending, sent (Open, the
 * modification approved), edited while Open (Pending Update), updated there (approved again).
 */
async function throughQuickBooks(o: Ref) {
  await walk(o);
  await allowed(o, 'edit');
  await becomes(o, 'Pending', true);
  await walk(o);
  await allowed(o, 'sendToQbo');
  await becomes(o, 'Open');
  await walk(o);
  await allowed(o, 'edit');
  await becomes(o, 'Open', true);
  await walk(o);
  await allowed(o, 'updateInQbo');
  await becomes(o, 'Open');
}

it('decides every write of an order by the lifecycle tables, whichever service receives it', async () => {
  // An estimate's whole life, and its invoice's.
  const a = await newEstimate();
  await throughQuickBooks(a);
  const invoice = await invoiceOf(a);
  await walk(a);
  await throughQuickBooks(invoice);
  await allowed(invoice, 'complete');
  await becomes(invoice, 'Completed');
  await walk(invoice);

  // Cancelled: a Pending and an Open estimate, a Pending and an Open invoice.
  const b = await newEstimate();
  await allowed(b, 'cancel');
  await becomes(b, 'Voided');
  await walk(b);
  const c = await openEstimate();
  await allowed(c, 'cancel');
  await becomes(c, 'Voided');
  await walk(c);
  const d = await invoiceOf(await openEstimate());
  await allowed(d, 'cancel');
  await becomes(d, 'Voided');
  await walk(d);
  const e = await invoiceOf(await openEstimate());
  await allowed(e, 'sendToQbo');
  await becomes(e, 'Open');
  await allowed(e, 'cancel');
  await becomes(e, 'Voided');
  await walk(e);

  // Every cell a call reaches was asked (an estimate is never Completed, an invoice never Closed).
  const reachable: Record<OrderType, string[]> = {
    estimate: ['Pending', 'Open', 'Closed', 'Voided'],
    invoice: ['Pending', 'Open', 'Completed', 'Voided'],
  };
  const missing = (Object.keys(reachable) as OrderType[]).flatMap((type) =>
    reachable[type].flatMap((status) =>
      UI_ACTIONS.filter((action) => ask({ type, id: 'x' }, action, '') !== null)
        .map((action) => `${type} ${status} ${action}`)
        .filter((cell) => !asked.has(cell)),
    ),
  );
  expect(missing).toEqual([]);
});

it("clears 'Pending Update' after an edit of a field on the QuickBooks document and of one not on it; the customer's stream follows", async () => {
  const o = await openEstimate();
  const stream = await openSse(`${api}/orders/events`, { token: customerToken });
  streams.push(stream);
  expect(stream.status).toBe(200);
  await stream.until((m) => m.some((x) => x.event === 'ready'), 20_000, 'ready');
  const qboId = (await read(o)).qboId as string;
  const estimateInQbo = async () =>
    (
      await emulatorCall<Array<Record<string, unknown>>>(`/__emulator/realms/${realmId}/records/Estimate`)
    ).find((x) => x.Id === qboId) as Record<string, unknown>;

  const updatesFor = () =>
    orderEvents(stream.messages).filter((x) => x.id === o.id && x.type === 'EstimateUpdated');
  for (const [field, value, onDocument] of [
    ['room', 'Ballroom B', false],
    ['location', 'Rooftop Terrace', true],
  ] as const) {
    const syncToken = (await estimateInQbo()).SyncToken;
    const heard = updatesFor().length;
    const edit = await call(api, `/estimate/${o.id}`, {
      method: 'PUT',
      token: customerToken,
      json: { [field]: value },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.result).toMatchObject({ [field]: value, hasBeenModified: true });
    await stream.until(() => updatesFor().length === heard + 1, 30_000, `the ${field} edit on the stream`);

    await projected(o);
    const update = await call(api, '/qbo/estimate/', {
      method: 'PUT',
      token: staffToken,
      json: { id: o.id },
    });
    expect([200, 202]).toContain(update.status);
    await becomes(o, 'Open');
    // The customer's open page hears the flag clear (it reads the order again on this event).
    await stream.until(() => updatesFor().length === heard + 2, 30_000, `the ${field} update on the stream`);
    const after = await estimateInQbo();
    if (onDocument) expect(after.SyncToken).not.toBe(syncToken);
    else expect(after.SyncToken).toBe(syncToken);
  }
});
