/**
 * Issue 30: a deposit taken when an accepted estimate became an invoice (DepositCaptured) reaches
 * QuickBooks as one Payment applied to that invoice, once the invoice itself is there.
 */
import {
  DepositCaptured,
  EstimateDepositChanged,
  EstimateSubmitted,
  InvoiceCreated,
  type OrderState,
} from '@decor/contracts';
import { publishEnvelopes } from '@decor/kit';
import { eventually, RUN_ID } from '@decor/kit/testing';
import type { Static } from '@sinclair/typebox';
import { customerWithProduct, estimatePayload } from './fixtures';
import {
  connect,
  emulatorCall,
  newId,
  newRealm,
  publish,
  type QboRecord,
  qboRecords,
  request,
  type Sync,
  staffToken,
  startSync,
  stopAndClean,
} from './support';

type Order = Static<typeof OrderState>;

describe('a captured deposit in QuickBooks', () => {
  let sync: Sync;
  let realmId: string;
  let customer: { userId: string; sku: string };

  beforeAll(async () => {
    realmId = await newRealm('Deposits Co');
    sync = await startSync();
    expect((await connect(sync, realmId)).status).toBe(200);
    customer = await customerWithProduct(sync, 'Dora');
  });
  afterAll(() => stopAndClean(sync));

  /** An estimate in QuickBooks and its invoice, created on the site (Pending, not in QuickBooks). */
  async function pendingInvoice(): Promise<{ invoice: Order; estimateId: string }> {
    const estimateId = newId();
    const submitted = estimatePayload(estimateId, customer.userId, customer.sku);
    await publish(sync, EstimateSubmitted, estimateId, submitted);
    const token = staffToken(sync);
    await eventually(async () => {
      const a = await request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id: estimateId } });
      return a.status === 404 ? undefined : a;
    });
    const estimateQboId = await eventually(
      async () => (await sync.ctx.records.findById(`estimate:${estimateId}`).lean())?.qboId ?? undefined,
      30_000,
    );
    const { estimateId: _e, status: _s, customer: c, submittedAt: _t, ...rest } = submitted;
    const invoice: Order = {
      ...rest,
      orderType: 'invoice',
      id: newId(),
      estimateId,
      status: 'Pending',
      hasBeenModified: false,
      isInQbo: false,
      qboId: null,
      customer: c,
      revision: 1,
    };
    expect(estimateQboId).toBeTruthy();
    await publish(sync, InvoiceCreated, invoice.id, {
      order: invoice,
      actor: { role: 'system', userId: null },
    });
    await eventually(
      async () => (await sync.ctx.records.findById(`invoice:${invoice.id}`).lean()) ?? undefined,
    );
    return { invoice, estimateId };
  }

  const captured = (invoice: Order, estimateId: string, amountCents: number) => ({
    estimateId,
    invoiceId: invoice.id,
    docNumber: invoice.docNumber,
    userId: customer.userId,
    intentId: `pi_${newId()}`,
    amountCents,
    capturedAt: new Date().toISOString(),
  });

  async function sendInvoice(invoice: Order): Promise<string> {
    const token = staffToken(sync);
    const answer = await request(sync.url, '/qbo/invoice', {
      method: 'POST',
      token,
      json: { id: invoice.id },
    });
    expect(answer.status).toBe(202);
    return eventually(
      async () => (await sync.ctx.records.findById(`invoice:${invoice.id}`).lean())?.qboId ?? undefined,
      30_000,
    );
  }

  const refundsFor = async (note: string) =>
    (await qboRecords(realmId, 'RefundReceipt')).filter((p) => String(p.PrivateNote).includes(note));

  const paymentsFor = async (note: string) =>
    (await qboRecords(realmId, 'Payment')).filter((p) => String(p.PrivateNote).includes(note));

  it('waits for its invoice, then records exactly one Payment applied to it; a redelivery adds none', async () => {
    const { invoice, estimateId } = await pendingInvoice();
    const deposit = captured(invoice, estimateId, 1_351);
    const event = await publish(sync, DepositCaptured, estimateId, deposit);
    // The invoice is not in QuickBooks: the deposit is stored and waits, nothing is written or failed.
    const waiting = await eventually(async () => {
      const rec = await sync.ctx.records.findById(`payment:${deposit.intentId}`).lean();
      const job = rec
        ? (await sync.ctx.syncQueue.getCompleted()).find((j) => j.data.recordId === rec.recordId)
        : undefined;
      return job?.returnvalue === 'waiting' ? rec : undefined;
    }, 30_000);
    expect(waiting?.qboId).toBeNull();
    expect(await paymentsFor(deposit.intentId)).toEqual([]);

    const invoiceQboId = await sendInvoice(invoice);
    const payment = (
      (await eventually(async () => {
        const found = await paymentsFor(deposit.intentId);
        return found.length > 0 ? found : undefined;
      }, 30_000)) as QboRecord[]
    )[0] as QboRecord;
    expect(payment).toMatchObject({
      CustomerRef: { value: expect.any(String) },
      TotalAmt: 13.51,
      Line: [{ Amount: 13.51, LinkedTxn: [{ TxnId: invoiceQboId, TxnType: 'Invoice' }] }],
    });
    const customerQboId = (await sync.ctx.records.findById(`customer:${customer.userId}`).lean())?.qboId;
    expect(payment.CustomerRef.value).toBe(customerQboId);
    const inQbo = (await qboRecords(realmId, 'Invoice')).find((i) => i.Id === invoiceQboId);
    expect(inQbo?.Balance).toBeCloseTo(inQbo?.TotalAmt - 13.51, 2);
    await eventually(async () =>
      (await sync.ctx.records.findById(`payment:${deposit.intentId}`).lean())?.qboId === String(payment.Id)
        ? true
        : undefined,
    );

    // The same event again (a redelivery), and the invoice updated in QuickBooks: still one Payment.
    await publishEnvelopes(sync.ctx.publisher.producer, RUN_ID, [event]);
    const token = staffToken(sync);
    await request(sync.url, '/qbo/invoice/', { method: 'PUT', token, json: { id: invoice.id } });
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await paymentsFor(deposit.intentId)).toHaveLength(1);
    expect(await sync.ctx.records.findById(`payment:${deposit.intentId}`).lean()).toMatchObject({
      revision: 1,
    });
  }, 120_000);

  it('retries through QuickBooks faults; a refusal fails the job with its message on the sync page', async () => {
    const { invoice, estimateId } = await pendingInvoice();
    await sendInvoice(invoice);
    await emulatorCall(`/__emulator/realms/${realmId}/faults`, {
      method: 'POST',
      json: { status: 503, count: 2 },
    });
    const deposit = captured(invoice, estimateId, 1_000);
    await publish(sync, DepositCaptured, estimateId, deposit);
    await eventually(
      async () => ((await paymentsFor(deposit.intentId)).length === 1 ? true : undefined),
      60_000,
    );
    // The Payment lands a moment before its job is marked completed: wait for the job.
    const done = await eventually(async () =>
      (await sync.ctx.syncQueue.getCompleted()).find((j) => j.data.recordId === deposit.intentId),
    );
    expect(done.attemptsMade).toBeGreaterThan(0);

    // More than the invoice's open balance: QuickBooks refuses, the job fails at once and is listed.
    const tooMuch = captured(invoice, estimateId, 1_000_000);
    await publish(sync, DepositCaptured, estimateId, tooMuch);
    const token = staffToken(sync);
    const failed = await eventually(async () => {
      const list = (await request(sync.url, '/qbo/jobs/failed', { token })).body.result as Array<
        Record<string, string>
      >;
      return list.find((j) => j.recordId === tooMuch.intentId);
    }, 30_000);
    expect(failed).toMatchObject({ kind: 'payment', label: `Deposit on ${invoice.docNumber}` });
    expect(failed.message).toContain('open balance');
    expect(failed).toHaveProperty('traceId');
    expect(await paymentsFor(tooMuch.intentId)).toEqual([]);
  }, 120_000);

  it('a refunded deposit becomes one RefundReceipt once its Payment is in QuickBooks; a redelivery adds none', async () => {
    const { invoice, estimateId } = await pendingInvoice();
    const deposit = captured(invoice, estimateId, 2_000);
    await publish(sync, DepositCaptured, estimateId, deposit);
    const estimate: Order = { ...invoice, orderType: 'estimate', id: estimateId, status: 'Closed' };
    delete estimate.estimateId;
    const refunded = await publish(sync, EstimateDepositChanged, estimateId, {
      order: estimate,
      from: 'captured',
      deposit: { amountCents: 2_000, intentId: deposit.intentId, state: 'refunded' },
    });
    // Neither the deposit nor its refund is in QuickBooks before the invoice is.
    await eventually(
      async () => (await sync.ctx.records.findById(`refund:${deposit.intentId}`).lean()) ?? undefined,
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await refundsFor(deposit.intentId)).toEqual([]);

    await sendInvoice(invoice);
    const [refund] = (await eventually(async () => {
      const found = await refundsFor(deposit.intentId);
      return found.length > 0 ? found : undefined;
    }, 30_000)) as QboRecord[];
    expect(refund).toMatchObject({ TotalAmt: 20, Balance: 0 });
    expect(await paymentsFor(deposit.intentId)).toHaveLength(1);
    await publishEnvelopes(sync.ctx.publisher.producer, RUN_ID, [refunded]);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await refundsFor(deposit.intentId)).toHaveLength(1);
  }, 120_000);
});
