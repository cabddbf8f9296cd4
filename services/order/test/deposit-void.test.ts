/**
 * Issue 30: voiding an invoice whose accepted estimate's deposit was taken — staff choose refund or
 * keep; a refund goes through the payment provider once, and the acceptance's view says which was
 * chosen once the invoice is voided. Real payments emulator, Kafka and Mongo.
 */
import { randomBytes } from 'node:crypto';
import { eventually } from '@decor/kit/testing';
import { type PaymentsEmulator, startPaymentsEmulator } from '@decor/payments-emulator';
import Stripe from 'stripe';
import { chooseOnVoid } from '../src/store/deposits';
import type { Estimate } from '../src/store/estimate-model';
import {
  addCustomer,
  type Order,
  orderCall,
  qboSynced,
  startOrder,
  stopAndClean,
  submitted,
  type TestCustomer,
  tokenFor,
} from './support';

const SECRET_KEY = `sk_test_order_void_${randomBytes(6).toString('hex')}`;
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let emulator: PaymentsEmulator;
let stripe: Stripe;
let service: Order;
let alice: TestCustomer;
let staff: string;

beforeAll(async () => {
  emulator = await startPaymentsEmulator({ port: 0 });
  const url = new URL(emulator.url);
  stripe = new Stripe(SECRET_KEY, { host: url.hostname, port: url.port, protocol: 'http' });
  service = await startOrder({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_API_URL: emulator.url,
    STRIPE_WEBHOOK_SECRET: 'whsec_order_void_test',
    PAYMENTS_FRAME_URL: `${emulator.url}/elements`,
    PAYMENTS_TIMEOUT_MS: '2000',
    ACCEPTANCE_SWEEP_AFTER_MS: '600000',
  });
  staff = tokenFor(service, 'admin');
  alice = await addCustomer(service);
}, 120_000);
afterAll(async () => {
  await stopAndClean(service);
  await emulator?.close();
});

const stored = (id: string) => service.ctx.estimates.findById(id).lean<Estimate>();

/** An estimate accepted with a deposit, and its invoice (which captured the deposit). */
async function invoicedWithDeposit(): Promise<{ estimateId: string; invoiceId: string; intentId: string }> {
  const { id } = await submitted(service, alice);
  await qboSynced(service, 'estimate', id, 'created');
  const view = await orderCall(service, 'GET', `/estimate/${id}/acceptance`, alice.token);
  const accepted = await orderCall(
    service,
    'POST',
    `/estimate/${id}/acceptance`,
    alice.token,
    {
      estimateVersion: view.body.result.estimateVersion,
      signerName: 'Alice Customer',
      signature: SIGNATURE,
      agree: true,
      paymentMethod: 'pm_card_visa',
    },
    { 'idempotency-key': randomBytes(8).toString('hex') },
  );
  expect(accepted.status).toBe(201);
  const invoice = await orderCall(service, 'POST', '/invoice', staff, { EstimateId: id });
  expect(invoice.status).toBe(201);
  const deposit = await eventually(
    async () => {
      const d = (await stored(id))?.deposit;
      return d?.state === 'captured' ? d : undefined;
    },
    20_000,
    'the deposit captured',
  );
  return { estimateId: id, invoiceId: invoice.body.result.id, intentId: deposit.intentId as string };
}

const voidInvoice = (id: string, extra: Record<string, unknown> = {}) =>
  orderCall(service, 'PUT', `/invoice/${id}`, staff, { status: 'Voided', ...extra });

/** The Acceptance card's facts: `accepted` of GET /estimate/:id/acceptance, as staff and its customer see it. */
async function acceptedView(estimateId: string) {
  const [byStaff, byCustomer] = await Promise.all(
    [staff, alice.token].map((token) =>
      orderCall(service, 'GET', `/estimate/${estimateId}/acceptance`, token),
    ),
  );
  expect([byStaff?.status, byCustomer?.status]).toEqual([200, 200]);
  expect(byCustomer?.body.result.accepted).toEqual(byStaff?.body.result.accepted);
  return byStaff?.body.result.accepted;
}

describe('voiding an invoice after its deposit was taken', () => {
  it('asks staff to choose; refund goes through the provider once and the deposit shows refunded', async () => {
    const { estimateId, invoiceId, intentId } = await invoicedWithDeposit();
    const unsaid = await voidInvoice(invoiceId);
    expect(unsaid.status).toBe(400);
    expect(unsaid.body.message).toContain("depositAction 'refund' or 'keep'");
    expect((await orderCall(service, 'GET', `/invoice/${invoiceId}`, staff)).body.result.status).not.toBe(
      'Voided',
    );
    expect((await voidInvoice(invoiceId, { depositAction: 'maybe' })).status).toBe(400);

    expect((await voidInvoice(invoiceId, { depositAction: 'refund' })).status).toBe(200);
    await eventually(
      async () => ((await stored(estimateId))?.deposit?.state === 'refunded' ? true : undefined),
      20_000,
      'the deposit refunded',
    );
    expect(await acceptedView(estimateId)).toMatchObject({
      depositState: 'refunded',
      depositOnVoid: 'refund',
    });
    const refunds = (await stripe.refunds.list({ payment_intent: intentId })).data;
    expect(refunds).toHaveLength(1);
    // The provider's refund under the same key again (a redelivered void): still one refund.
    await service.ctx.payments.refund(intentId, refunds[0]?.amount);
    expect((await stripe.refunds.list({ payment_intent: intentId })).data).toHaveLength(1);
  }, 120_000);

  it('keep: the invoice is voided and the deposit stays taken', async () => {
    const { estimateId, invoiceId, intentId } = await invoicedWithDeposit();
    const before = await acceptedView(estimateId);
    expect(before.depositState).toBe('captured');
    expect(before).not.toHaveProperty('depositOnVoid');
    // A choice stored for a void that did not happen (refused, or the process died): not shown.
    await chooseOnVoid(service.ctx, estimateId, 'refund');
    expect(await acceptedView(estimateId)).not.toHaveProperty('depositOnVoid');

    expect((await voidInvoice(invoiceId, { depositAction: 'keep' })).status).toBe(200);
    // The card tells a kept deposit from one whose refund is on its way.
    expect(await acceptedView(estimateId)).toMatchObject({ depositState: 'captured', depositOnVoid: 'keep' });
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await stored(estimateId))?.deposit?.state).toBe('captured');
    expect((await stripe.refunds.list({ payment_intent: intentId })).data).toHaveLength(0);
    expect(await acceptedView(estimateId)).toMatchObject({ depositState: 'captured', depositOnVoid: 'keep' });
  }, 120_000);
});
