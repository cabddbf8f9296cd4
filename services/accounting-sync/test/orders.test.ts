/** Orders after submission: invoices created from estimates, and cancelled orders in QuickBooks. */
import {
  EstimateStatusChanged,
  EstimateSubmitted,
  InvoiceCreated,
  InvoiceStatusChanged,
  type OrderState,
} from '@decor/contracts';
import { eventually } from '@decor/kit/testing';
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
});
