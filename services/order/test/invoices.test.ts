/** Invoices against a real server: requested from estimates, QuickBooks outcomes, completion, races. */
import { eventually } from '@decor/kit/testing';
import { Types } from 'mongoose';
import { closeInvoicedEstimate, insertInvoice, readOrder } from '../src/store/orders';
import {
  addCustomer,
  daysFromToday,
  eventsOf,
  newId,
  type Order,
  orderCall,
  qboSynced,
  startOrder,
  stopAndClean,
  submitted,
  type TestCustomer,
  tokenFor,
} from './support';

let service: Order;
let alice: TestCustomer;
let bob: TestCustomer;
let admin: string;

beforeAll(async () => {
  service = await startOrder();
  admin = tokenFor(service, 'admin');
  alice = await addCustomer(service);
  bob = await addCustomer(service);
});
afterAll(() => stopAndClean(service));

/** An estimate of `customer` that QuickBooks has (Open, isInQbo). */
async function openEstimate(customer: TestCustomer, extra: Record<string, unknown> = {}) {
  const estimate = await submitted(service, customer, extra);
  await qboSynced(service, 'estimate', estimate.id, 'created', `q-${estimate.DocNumber}`);
  return estimate;
}

const requestInvoice = (token: string, EstimateId: string, headers: Record<string, string> = {}) =>
  orderCall(service, 'POST', '/invoice', token, { EstimateId }, headers);

describe('the whole journey: estimate → invoice → QuickBooks → completed', () => {
  it('follows spec §4 and publishes each event exactly once', async () => {
    const estimate = await submitted(service, alice);

    // Pending: no invoice yet.
    const early = await requestInvoice(alice.token, estimate.id);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('You may request an invoice once your estimate has been approved.');

    await qboSynced(service, 'estimate', estimate.id, 'created', '301');
    const open = await orderCall(service, 'GET', `/estimate/${estimate.id}`, alice.token);
    expect(open.body.result).toMatchObject({ status: 'Open', isInQbo: true, qboId: '301' });
    expect(open.body.result.actions.requestInvoice).toEqual({ allowed: true });

    const created = await requestInvoice(alice.token, estimate.id);
    expect(created.status).toBe(201);
    const invoice = created.body.result;
    expect(invoice).toMatchObject({
      DocNumber: estimate.DocNumber,
      EstimateId: estimate.id,
      UserId: alice.id,
      status: 'Pending',
      isInQbo: false,
      qboId: null,
      hasBeenModified: false,
      customerName: alice.company,
      subtotal: 25,
      truckingFee: 350,
      salesTax: 30.38,
      total: 405.38,
      CartProducts: [expect.objectContaining({ id: 'SEA-CH-001', qty: 2, price: 12.5, total: 25 })],
      User: { displayName: alice.displayName, ownCompany: alice.company, email: alice.email, qboId: null },
    });
    expect(invoice).not.toHaveProperty('hasInvoice');
    expect(invoice.actions).toMatchObject({
      complete: { allowed: false },
      cancel: { allowed: true },
      edit: { allowed: true },
    });

    const closed = await orderCall(service, 'GET', `/estimate/${estimate.id}`, alice.token);
    expect(closed.body.result).toMatchObject({ status: 'Closed', hasInvoice: true });
    expect(closed.headers.get('can-be-modified')).toBe('false');
    expect(closed.body.result.actions).toMatchObject({
      edit: { allowed: false, reason: 'This estimate is linked to an existing invoice.' },
      requestInvoice: { allowed: false, reason: 'An invoice has already been created for this order.' },
      cancel: { allowed: false, reason: 'This estimate is linked to an existing invoice.' },
    });
    const again = await requestInvoice(alice.token, estimate.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('An invoice has already been created for this order.');

    // Staff cannot complete a Pending invoice.
    const tooSoon = await orderCall(service, 'PUT', `/invoice/${invoice.id}`, admin, { status: 'Completed' });
    expect(tooSoon.status).toBe(409);
    expect(tooSoon.body.message).toBe('This invoice must be opened before it can be confirmed');

    // Created in QuickBooks → Open.
    await qboSynced(service, 'invoice', invoice.id, 'created', '900', '0');
    const inQbo = await orderCall(service, 'GET', `/invoice/${invoice.id}`, admin);
    expect(inQbo.body.result).toMatchObject({ status: 'Open', isInQbo: true, qboId: '900', syncToken: '0' });
    expect(inQbo.body.result.actions).toMatchObject({
      complete: { allowed: true },
      sendToQbo: { allowed: false, reason: 'This order is already in Quick Books.' },
    });

    // Customers cannot cancel an Open invoice, nor complete one.
    const cancel = await orderCall(service, 'PUT', `/invoice/${invoice.id}`, alice.token, {
      status: 'Voided',
    });
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toBe(
      'The status of this order is Open, and cannot be cancelled from the site.',
    );
    const byCustomer = await orderCall(service, 'PUT', `/invoice/${invoice.id}`, alice.token, {
      status: 'Completed',
    });
    expect(byCustomer.status).toBe(403);

    const done = await orderCall(service, 'PUT', `/invoice/${invoice.id}`, admin, { status: 'Completed' });
    expect(done.status).toBe(200);
    expect(done.body.result).toMatchObject({ status: 'Completed', hasBeenModified: false });
    expect(done.headers.get('can-be-modified')).toBe('false');

    // Terminal: every change refuses with the spec's sentence.
    for (const [token, body] of [
      [admin, { status: 'Completed' }],
      [admin, { status: 'Voided' }],
      [admin, { room: 'B' }],
      [alice.token, { room: 'B' }],
    ] as const) {
      const res = await orderCall(service, 'PUT', `/invoice/${invoice.id}`, token, body);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('This order is Completed');
    }

    const estimateEvents = (await eventsOf(service, estimate.id)).map((e) => [
      e.type,
      (e.payload as { order?: { status: string } }).order?.status ?? 'Pending',
    ]);
    expect(estimateEvents).toEqual([
      ['EstimateSubmitted', 'Pending'],
      ['EstimateStatusChanged', 'Open'],
      ['EstimateOffered', 'Open'], // offered for online acceptance (issue 30)
      ['EstimateStatusChanged', 'Closed'],
    ]);
    const invoiceEvents = await eventsOf(service, invoice.id);
    expect(invoiceEvents.map((e) => e.type)).toEqual([
      'InvoiceCreated',
      'InvoiceStatusChanged',
      'InvoiceStatusChanged',
      'InvoiceCompleted',
    ]);
    expect(new Set(invoiceEvents.map((e) => e.id)).size).toBe(4);
    expect(invoiceEvents[0]?.payload).toMatchObject({
      actor: { role: 'customer', userId: alice.id },
      order: { orderType: 'invoice', estimateId: estimate.id, status: 'Pending', revision: 0 },
    });
    expect(invoiceEvents[1]?.payload).toMatchObject({
      from: 'Pending',
      actor: { role: 'system', userId: null },
      order: { status: 'Open', isInQbo: true, qboId: '900', revision: 1 },
    });
    expect(invoiceEvents[2]?.payload).toMatchObject({
      from: 'Open',
      actor: { role: 'staff' },
      order: { status: 'Completed', revision: 2 },
    });
    expect(invoiceEvents[3]?.payload).toMatchObject({ order: { status: 'Completed', revision: 2 } });
  });
});

describe('requesting an invoice', () => {
  it('refuses a modified estimate until QuickBooks has the update', async () => {
    const estimate = await openEstimate(alice);
    const edit = await orderCall(service, 'PUT', `/estimate/${estimate.id}`, alice.token, {
      room: 'Ballroom',
    });
    expect(edit.body.result).toMatchObject({ status: 'Open', hasBeenModified: true, room: 'Ballroom' });
    const refused = await requestInvoice(alice.token, estimate.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This order has been modified. You can request an invoice after your update has been approved.',
    );
    await qboSynced(service, 'estimate', estimate.id, 'updated', `q-${estimate.DocNumber}`, '1');
    const cleared = await orderCall(service, 'GET', `/estimate/${estimate.id}`, alice.token);
    expect(cleared.body.result).toMatchObject({ hasBeenModified: false, syncToken: '1' });
    expect((await requestInvoice(alice.token, estimate.id)).status).toBe(201);
  });

  it("lets staff request one; answers 404 for another customer's estimate or an unknown one", async () => {
    const estimate = await openEstimate(bob);
    const theirs = await requestInvoice(alice.token, estimate.id);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Estimate not found');
    expect((await requestInvoice(alice.token, new Types.ObjectId().toString())).status).toBe(404);
    const byStaff = await requestInvoice(admin, estimate.id);
    expect(byStaff.status).toBe(201);
    expect(byStaff.body.result.UserId).toBe(bob.id);
    const events = await eventsOf(service, byStaff.body.result.id);
    expect(events[0]?.payload).toMatchObject({ actor: { role: 'staff' } });
  });

  it('answers 400 for a malformed body', async () => {
    expect((await orderCall(service, 'POST', '/invoice', alice.token, { EstimateId: 'nope' })).status).toBe(
      400,
    );
    expect((await orderCall(service, 'POST', '/invoice', alice.token, {})).status).toBe(400);
    const extra = await orderCall(service, 'POST', '/invoice', alice.token, {
      EstimateId: new Types.ObjectId().toString(),
      status: 'Pending',
    });
    expect(extra.status).toBe(400);
  });

  it('makes ONE invoice of two racing requests without a key (the other: 409)', async () => {
    const estimate = await openEstimate(alice);
    const answers = await Promise.all([
      requestInvoice(alice.token, estimate.id),
      requestInvoice(admin, estimate.id),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)?.body.message).toBe(
      'An invoice has already been created for this order.',
    );
    expect(await service.ctx.invoices.countDocuments({ estimateId: estimate.id })).toBe(1);
    const invoiceId = answers.find((a) => a.status === 201)?.body.result.id;
    expect((await eventsOf(service, invoiceId)).map((e) => e.type)).toEqual(['InvoiceCreated']);
    const closing = (await eventsOf(service, estimate.id)).filter(
      (e) => (e.payload as { order?: { status: string } }).order?.status === 'Closed',
    );
    expect(closing).toHaveLength(1);
  });

  it('makes ONE invoice of two racing requests with the same Idempotency-Key (both answer it)', async () => {
    const estimate = await openEstimate(alice);
    const key = `inv-${newId()}`;
    const answers = await Promise.all([
      requestInvoice(alice.token, estimate.id, { 'idempotency-key': key }),
      requestInvoice(alice.token, estimate.id, { 'idempotency-key': key }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]?.body.result.id).toBe(answers[1]?.body.result.id);
    expect(await service.ctx.invoices.countDocuments({ estimateId: estimate.id })).toBe(1);

    const replay = await requestInvoice(alice.token, estimate.id, { 'idempotency-key': key });
    expect(replay.status).toBe(200);
    expect(replay.body.result.id).toBe(answers[0]?.body.result.id);
    const other = await openEstimate(alice);
    const reused = await requestInvoice(alice.token, other.id, { 'idempotency-key': key });
    expect(reused.status).toBe(409);
    expect(reused.body.message).toBe('This Idempotency-Key was already used for another invoice request');
    expect((await eventsOf(service, answers[0]?.body.result.id)).map((e) => e.type)).toEqual([
      'InvoiceCreated',
    ]);
  });

  it('closes the estimate from InvoiceCreated when the request died between its two writes', async () => {
    const estimate = await openEstimate(alice);
    const record = await readOrder(service.ctx, 'estimate', estimate.id);
    if (!record) throw new Error('no estimate');
    // Only the invoice's insert, as if the process died before closing the estimate.
    const outcome = await insertInvoice(
      service.ctx,
      record,
      { role: 'customer', userId: alice.id },
      undefined,
      'crash-test',
    );
    expect('inserted' in outcome).toBe(true);
    const closed = await eventually(
      async () => {
        const e = await readOrder(service.ctx, 'estimate', estimate.id);
        return e?.status === 'Closed' ? e : undefined;
      },
      20_000,
      'the estimate closed by the InvoiceCreated consumer',
    );
    expect(closed.hasInvoice).toBe(true);
    // Closing again (the request's own attempt arriving late) changes nothing and publishes nothing.
    const late = await closeInvoicedEstimate(
      service.ctx,
      estimate.id,
      { role: 'system', userId: null },
      'late',
    );
    expect(late.published).toBe(false);
    const closing = (await eventsOf(service, estimate.id)).filter((e) => e.type === 'EstimateStatusChanged');
    expect(closing.map((e) => (e.payload as { order: { status: string } }).order.status)).toEqual([
      'Open',
      'Closed',
    ]);
  });
});

describe('QuickBooks outcomes for invoices', () => {
  async function pendingInvoice(customer: TestCustomer, extra: Record<string, unknown> = {}) {
    const estimate = await openEstimate(customer, extra);
    const res = await requestInvoice(customer.token, estimate.id);
    expect(res.status).toBe(201);
    return res.body.result as { id: string; DocNumber: string };
  }

  it.each(['created', 'updated', 'sent'] as const)(
    '%s in QuickBooks: a Pending invoice is Open',
    async (action) => {
      const invoice = await pendingInvoice(alice);
      await qboSynced(service, 'invoice', invoice.id, action, '777', '3');
      const res = await orderCall(service, 'GET', `/invoice/${invoice.id}`, alice.token);
      expect(res.body.result).toMatchObject({ status: 'Open', isInQbo: true, qboId: '777', syncToken: '3' });
    },
  );

  it("the update clears hasBeenModified ('Pending Update' → approved) and publishes InvoiceUpdated", async () => {
    const invoice = await pendingInvoice(alice);
    await qboSynced(service, 'invoice', invoice.id, 'created', '778', '0');
    const edit = await orderCall(service, 'PUT', `/invoice/${invoice.id}`, admin, { location: 'Garden' });
    expect(edit.body.result).toMatchObject({ hasBeenModified: true, location: 'Garden' });
    expect(edit.body.result.actions.updateInQbo).toEqual({ allowed: true });
    await qboSynced(service, 'invoice', invoice.id, 'updated', '778', '1');
    const res = await orderCall(service, 'GET', `/invoice/${invoice.id}`, admin);
    expect(res.body.result).toMatchObject({ status: 'Open', hasBeenModified: false, syncToken: '1' });
    expect(res.body.result.actions.updateInQbo).toEqual({ allowed: false });
    const types = (await eventsOf(service, invoice.id)).map((e) => [
      e.type,
      (e.payload as { changed?: string[] }).changed,
    ]);
    expect(types).toEqual([
      ['InvoiceCreated', undefined],
      ['InvoiceStatusChanged', undefined],
      ['InvoiceUpdated', ['location']],
      ['InvoiceUpdated', ['hasBeenModified']],
    ]);
  });

  it('a redelivered outcome changes nothing and publishes nothing', async () => {
    const invoice = await pendingInvoice(alice);
    await qboSynced(service, 'invoice', invoice.id, 'created', '779', '0');
    await qboSynced(service, 'invoice', invoice.id, 'created', '779', '0');
    expect((await eventsOf(service, invoice.id)).map((e) => e.type)).toEqual([
      'InvoiceCreated',
      'InvoiceStatusChanged',
    ]);
  });

  it('never reopens a Voided invoice', async () => {
    const invoice = await pendingInvoice(alice);
    const cancel = await orderCall(service, 'PUT', `/invoice/${invoice.id}`, alice.token, {
      status: 'Voided',
    });
    expect(cancel.body.result.status).toBe('Voided');
    await qboSynced(service, 'invoice', invoice.id, 'created', '780', '0');
    const res = await orderCall(service, 'GET', `/invoice/${invoice.id}`, alice.token);
    expect(res.body.result).toMatchObject({ status: 'Voided', isInQbo: false });
  });
});

describe('cancelling invoices', () => {
  it('customers cancel their Pending invoice (3+ days out); staff cancel an Open one', async () => {
    const estimate = await openEstimate(alice);
    const pending = (await requestInvoice(alice.token, estimate.id)).body.result;
    const cancelled = await orderCall(service, 'PUT', `/invoice/${pending.id}`, alice.token, {
      status: 'Voided',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.result.status).toBe('Voided');
    expect(cancelled.body.result.actions.cancel).toEqual({ allowed: false, reason: 'This order is Voided' });

    const other = await openEstimate(alice);
    const open = (await requestInvoice(alice.token, other.id)).body.result;
    await qboSynced(service, 'invoice', open.id, 'created', '781');
    const byStaff = await orderCall(service, 'PUT', `/invoice/${open.id}`, admin, { status: 'Voided' });
    expect(byStaff.body.result.status).toBe('Voided');
    const events = await eventsOf(service, open.id);
    expect(events.at(-1)).toMatchObject({
      type: 'InvoiceStatusChanged',
      payload: { from: 'Open', order: { status: 'Voided', isInQbo: true }, actor: { role: 'staff' } },
    });
  });

  it('refuses a customer within 3 days of the event', async () => {
    const estimate = await openEstimate(alice, { eventDate: daysFromToday(2) });
    const invoice = (await requestInvoice(alice.token, estimate.id)).body.result;
    const res = await orderCall(service, 'PUT', `/invoice/${invoice.id}`, alice.token, { status: 'Voided' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'This event will occur in less than 3 days. If you need to change your order please contact us.',
    );
    expect(
      (await orderCall(service, 'PUT', `/invoice/${invoice.id}`, admin, { status: 'Voided' })).status,
    ).toBe(200);
  });
});

describe('GET /invoice and GET /invoice/{id}', () => {
  let carol: TestCustomer;
  const ids: string[] = [];
  const docNumbers: string[] = [];
  const estimateIds: string[] = [];

  beforeAll(async () => {
    carol = await addCustomer(service);
    for (let i = 0; i < 3; i += 1) {
      const estimate = await openEstimate(carol);
      const res = await requestInvoice(carol.token, estimate.id);
      ids.push(res.body.result.id);
      docNumbers.push(res.body.result.DocNumber);
      estimateIds.push(estimate.id);
    }
    await qboSynced(service, 'invoice', ids[0] as string, 'created', '990');
    await orderCall(service, 'PUT', `/invoice/${ids[1]}`, carol.token, { room: 'Annex' });
  });

  it("lists a customer's own, newest first, 20 by default, with total_count and each row's actions", async () => {
    const res = await orderCall(service, 'GET', '/invoice', carol.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('total_count')).toBe('3');
    expect(res.body.result.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    for (const row of res.body.result) {
      expect(row).toMatchObject({ UserId: carol.id });
      expect(Object.keys(row.actions).sort()).toEqual(
        ['cancel', 'complete', 'edit', 'requestInvoice', 'sendToQbo', 'updateInQbo'].sort(),
      );
    }
  });

  it('pages, orders, filters by status, hasBeenModified, DocNumber prefix and EstimateId', async () => {
    const page = await orderCall(
      service,
      'GET',
      '/invoice?order=createdAt:ASC&limit=1&offset=1',
      carol.token,
    );
    expect(page.headers.get('total_count')).toBe('3');
    expect(page.body.result.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    const open = await orderCall(service, 'GET', '/invoice?status=open', carol.token);
    expect(open.body.result.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    const modified = await orderCall(service, 'GET', '/invoice?hasBeenModified=true', carol.token);
    expect(modified.body.result.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    const byDoc = await orderCall(service, 'GET', `/invoice?like=DocNumber:${docNumbers[2]}`, carol.token);
    expect(byDoc.body.result.map((i: { id: string }) => i.id)).toEqual([ids[2]]);
    const byEstimate = await orderCall(service, 'GET', `/invoice?EstimateId=${estimateIds[1]}`, carol.token);
    expect(byEstimate.body.result.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
  });

  it("shows staff everyone's (UserId narrows); a customer asking for another's gets nothing", async () => {
    const all = await orderCall(service, 'GET', '/invoice?limit=100', admin);
    expect(Number(all.headers.get('total_count'))).toBe(await service.ctx.invoices.countDocuments());
    const carols = await orderCall(service, 'GET', `/invoice?UserId=${carol.id}`, admin);
    expect(carols.headers.get('total_count')).toBe('3');
    const none = await orderCall(service, 'GET', `/invoice?UserId=${carol.id}`, alice.token);
    expect(none.body.result).toEqual([]);
    expect(none.headers.get('total_count')).toBe('0');
  });

  it.each([
    ['status=lost', 'status must be one of: Pending, Open, Closed, Completed, Voided'],
    ['EstimateId=xyz', 'Invalid EstimateId'],
    ['limit=101', 'limit must be at most 100'],
    ['color=red', "Unknown query parameter 'color'"],
  ])('answers 400 for %s', async (query, message) => {
    const res = await orderCall(service, 'GET', `/invoice?${query}`, carol.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("answers 404 'Invoice not found' for another customer's invoice (read or change)", async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { room: 'X' }],
      ['PUT', { status: 'Voided' }],
    ] as const) {
      const res = await orderCall(service, method, `/invoice/${ids[0]}`, alice.token, body);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Invoice not found');
    }
    expect((await orderCall(service, 'GET', `/invoice/${ids[0]}`, admin)).status).toBe(200);
  });
});

describe('list conventions of both types', () => {
  it.each(['estimate', 'invoice'] as const)(
    '%s: 20 rows by default, the rest with offset, total_count',
    async (type) => {
      const owner = newId();
      const token = tokenFor(service, 'customer', owner);
      const model = type === 'invoice' ? service.ctx.invoices : service.ctx.estimates;
      const base = Date.now();
      await model.insertMany(
        Array.from({ length: 22 }, (_, i) => ({
          _id: new Types.ObjectId(),
          docNumber: `L${type[0]}${owner.slice(0, 8)}${String(i).padStart(2, '0')}`,
          userId: owner,
          cartId: newId(),
          ...(type === 'invoice' ? { estimateId: new Types.ObjectId().toString() } : {}),
          status: 'Pending',
          details: { groupName: 'G', eventDate: '2031-01-01', location: 'L' },
          lines: [],
          subtotalCents: 0,
          truckingCents: 0,
          taxCents: 0,
          totalCents: 0,
          customer: { email: `${owner}@decor.example` },
          createdAt: new Date(base + i * 1000),
        })),
      );
      const first = await orderCall(service, 'GET', `/${type}`, token);
      expect(first.headers.get('total_count')).toBe('22');
      expect(first.body.result).toHaveLength(20);
      // Newest first by default.
      expect(first.body.result[0].DocNumber.endsWith('21')).toBe(true);
      const rest = await orderCall(service, 'GET', `/${type}?offset=20`, token);
      expect(rest.body.result.map((o: { DocNumber: string }) => o.DocNumber.slice(-2))).toEqual(['01', '00']);
      const asc = await orderCall(service, 'GET', `/${type}?order=createdAt:ASC&limit=2`, token);
      expect(asc.body.result.map((o: { DocNumber: string }) => o.DocNumber.slice(-2))).toEqual(['00', '01']);
    },
  );
});
