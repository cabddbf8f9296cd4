/** Orders after submission: invoices created from estimates, and cancelled orders in QuickBooks. */
import {
  EstimateStatusChanged,
  EstimateSubmitted,
  EstimateUpdated,
  type EventEnvelope,
  InvoiceCreated,
  InvoiceStatusChanged,
  type OrderDetailValues,
  type OrderState,
} from '@decor/contracts';
import { eventually, RUN_ID, topicEvents } from '@decor/kit/testing';
import type { Static } from '@sinclair/typebox';
import { customerWithProduct, estimatePayload } from './fixtures';
import {
  connect,
  newId,
  newRealm,
  publish,
  qboRecords,
  request,
  type Sync,
  staffToken,
  startSync,
  stopAndClean,
} from './support';

type Order = Static<typeof OrderState>;
const system = { role: 'system' as const, userId: null };

describe('orders in QuickBooks after submission', () => {
  let sync: Sync;
  let realmId: string;
  let customer: { userId: string; sku: string };

  beforeAll(async () => {
    realmId = await newRealm('Orders Co');
    sync = await startSync();
    expect((await connect(sync, realmId)).status).toBe(200);
    customer = await customerWithProduct(sync, 'Ines');
  });
  afterAll(() => stopAndClean(sync));

  /** An estimate submitted and sent to QuickBooks by staff: its state as the order events carry it. */
  async function estimateInQbo(): Promise<{ order: Order; qboId: string }> {
    const id = newId();
    const submitted = estimatePayload(id, customer.userId, customer.sku);
    await publish(sync, EstimateSubmitted, id, submitted);
    const token = staffToken(sync);
    await eventually(async () => {
      const a = await request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id } });
      return a.status === 404 ? undefined : a;
    });
    const qboId = await eventually(
      async () => (await sync.ctx.records.findById(`estimate:${id}`).lean())?.qboId ?? undefined,
      30_000,
    );
    const { estimateId: _e, status: _s, customer: c, submittedAt: _t, ...rest } = submitted;
    const order: Order = {
      ...rest,
      orderType: 'estimate',
      id,
      status: 'Open',
      hasBeenModified: false,
      hasInvoice: false,
      isInQbo: true,
      qboId,
      customer: c,
      revision: 2,
    };
    return { order, qboId };
  }

  it('creates the invoice linked to its estimate, which QuickBooks then closes; cancelling voids it there', async () => {
    const { order: estimate, qboId: estimateQboId } = await estimateInQbo();
    const invoice: Order = {
      ...estimate,
      orderType: 'invoice',
      id: newId(),
      estimateId: estimate.id,
      status: 'Pending',
      isInQbo: false,
      qboId: null,
      revision: 1,
    };
    delete invoice.hasInvoice;
    await publish(sync, InvoiceCreated, invoice.id, {
      order: invoice,
      actor: { role: 'customer', userId: customer.userId },
    });
    const token = staffToken(sync);
    const answer = await eventually(async () => {
      const a = await request(sync.url, '/qbo/invoice', { method: 'POST', token, json: { id: invoice.id } });
      return a.status === 404 ? undefined : a;
    });
    expect(answer.status).toBe(202);
    const inQbo = await eventually(
      async () => (await qboRecords(realmId, 'Invoice')).find((i) => i.DocNumber === invoice.docNumber),
      30_000,
    );
    expect(inQbo.LinkedTxn).toEqual([expect.objectContaining({ TxnId: estimateQboId, TxnType: 'Estimate' })]);
    expect((await qboRecords(realmId, 'Estimate')).find((e) => e.Id === estimateQboId)?.TxnStatus).toBe(
      'Closed',
    );

    // Pending invoices are not in QuickBooks: cancelling one there is skipped…
    const pendingElsewhere: Order = {
      ...invoice,
      id: newId(),
      status: 'Voided',
      isInQbo: false,
      revision: 2,
    };
    await publish(sync, InvoiceStatusChanged, pendingElsewhere.id, {
      order: pendingElsewhere,
      from: 'Pending',
      actor: system,
    });
    // …and one that is in QuickBooks is voided there.
    const voided: Order = {
      ...invoice,
      status: 'Voided',
      isInQbo: true,
      qboId: String(inQbo.Id),
      revision: 3,
    };
    await publish(sync, InvoiceStatusChanged, invoice.id, {
      order: voided,
      from: 'Open',
      actor: { role: 'staff', userId: newId() },
    });
    const after = await eventually(async () => {
      const i = (await qboRecords(realmId, 'Invoice')).find((x) => x.Id === inQbo.Id);
      return i?.PrivateNote?.startsWith('Voided') ? i : undefined;
    }, 30_000);
    expect(after.TotalAmt).toBe(0);
    expect(await sync.ctx.syncQueue.getFailedCount()).toBe(0);
    expect(await sync.ctx.records.findById(`invoice:${pendingElsewhere.id}`).lean()).toMatchObject({
      qboId: null,
    });
  });

  it('rejects a cancelled estimate in QuickBooks', async () => {
    const { order, qboId } = await estimateInQbo();
    await publish(sync, EstimateStatusChanged, order.id, {
      order: { ...order, status: 'Voided', revision: 3 },
      from: 'Open',
      actor: { role: 'customer', userId: customer.userId },
    });
    await eventually(
      async () =>
        (await qboRecords(realmId, 'Estimate')).find((e) => e.Id === qboId)?.TxnStatus === 'Rejected'
          ? true
          : undefined,
      30_000,
    );
  });

  /** The order's edit as the order service publishes it, and the accounting-sync record has it. */
  async function edited(order: Order, details: OrderDetailValues): Promise<Order> {
    const next: Order = { ...order, hasBeenModified: true, details, revision: order.revision + 1 };
    await publish(sync, EstimateUpdated, order.id, {
      order: next,
      actor: { role: 'staff', userId: newId() },
      changed: (Object.keys(details) as (keyof OrderDetailValues)[]).filter(
        (k) => details[k] !== order.details[k],
      ),
    });
    await eventually(async () => {
      const rec = await sync.ctx.records.findById(`estimate:${order.id}`).lean();
      return (rec?.data as { orderRevision?: number })?.orderRevision === next.revision ? true : undefined;
    });
    return next;
  }

  const syncedOf = (id: string) => (events: EventEnvelope[]) =>
    events.filter(
      (e) => e.type === 'QboRecordSynced' && (e.payload as { recordId?: string }).recordId === id,
    );

  it("reports an update whose document did not change ('unchanged', with the order revision), and a real one ('updated')", async () => {
    const { order, qboId } = await estimateInQbo();
    const token = staffToken(sync);
    const before = (await qboRecords(realmId, 'Estimate')).find((e) => e.Id === qboId);

    // A field the QuickBooks document does not show: nothing is written, the outcome still travels.
    const roomOnly = await edited(order, { ...order.details, room: 'Ballroom B' });
    const put = await request(sync.url, '/qbo/estimate/', { method: 'PUT', token, json: { id: order.id } });
    expect(put.status).toBe(202);
    const first = await topicEvents(
      sync.ctx.kafka,
      `${RUN_ID}.accounting`,
      (events) => syncedOf(order.id)(events).length === 2,
    );
    expect(syncedOf(order.id)(first)[1]?.payload).toMatchObject({
      action: 'unchanged',
      qboId,
      sourceRevision: roomOnly.revision,
    });
    const after = (await qboRecords(realmId, 'Estimate')).find((e) => e.Id === qboId);
    expect(after?.SyncToken).toBe(before?.SyncToken);

    // A field on the document: written, reported as updated.
    const onDocument = await edited(roomOnly, { ...roomOnly.details, groupName: 'Autumn Gala' });
    const again = await request(sync.url, '/qbo/estimate/', { method: 'PUT', token, json: { id: order.id } });
    expect(again.status).toBe(202);
    const second = await topicEvents(
      sync.ctx.kafka,
      `${RUN_ID}.accounting`,
      (events) => syncedOf(order.id)(events).length === 3,
    );
    expect(syncedOf(order.id)(second)[2]?.payload).toMatchObject({
      action: 'updated',
      qboId,
      sourceRevision: onDocument.revision,
    });
    const written = (await qboRecords(realmId, 'Estimate')).find((e) => e.Id === qboId);
    expect(Number(written?.SyncToken)).toBeGreaterThan(Number(before?.SyncToken));
  });

  it('decides its write calls by the lifecycle tables: 409 with the spec sentence, nothing enqueued', async () => {
    const token = staffToken(sync);
    const refused = async (
      method: 'POST' | 'PUT',
      kind: 'estimate' | 'invoice',
      id: string,
      message: string,
    ) => {
      const jobsOf = async () =>
        (await sync.ctx.syncQueue.getJobs()).filter((j) => j?.data.recordId === id).map((j) => j.id);
      const jobs = await jobsOf();
      const path = method === 'PUT' ? `/qbo/${kind}/` : `/qbo/${kind}`;
      const answer = await request(sync.url, path, { method, token, json: { id } });
      expect({ status: answer.status, message: answer.body?.message }).toEqual({ status: 409, message });
      expect(await jobsOf()).toEqual(jobs);
    };
    const { order } = await estimateInQbo();
    await refused('POST', 'estimate', order.id, 'This order is already in Quick Books.');
    await refused('PUT', 'estimate', order.id, 'This order has no changes to update in Quick Books');

    const pending = newId();
    await publish(sync, EstimateSubmitted, pending, estimatePayload(pending, customer.userId, customer.sku));
    await eventually(async () =>
      (await sync.ctx.records.findById(`estimate:${pending}`).lean()) ? true : undefined,
    );
    await refused('PUT', 'estimate', pending, 'This order is not in Quick Books yet');

    const voided: Order = {
      ...order,
      id: newId(),
      status: 'Voided',
      isInQbo: false,
      qboId: null,
      revision: 3,
    };
    await publish(sync, EstimateStatusChanged, voided.id, { order: voided, from: 'Pending', actor: system });
    await eventually(async () =>
      (await sync.ctx.records.findById(`estimate:${voided.id}`).lean()) ? true : undefined,
    );
    await refused('POST', 'estimate', voided.id, 'This order is Voided');
    await refused('PUT', 'estimate', voided.id, 'This order is Voided');

    const completed: Order = {
      ...order,
      orderType: 'invoice',
      id: newId(),
      estimateId: order.id,
      status: 'Completed',
      isInQbo: false,
      qboId: null,
      revision: 4,
    };
    delete completed.hasInvoice;
    await publish(sync, InvoiceStatusChanged, completed.id, {
      order: completed,
      from: 'Open',
      actor: system,
    });
    await eventually(async () =>
      (await sync.ctx.records.findById(`invoice:${completed.id}`).lean()) ? true : undefined,
    );
    await refused('POST', 'invoice', completed.id, 'This order is Completed');
    await refused('PUT', 'invoice', completed.id, 'This order is Completed');
  });
});
