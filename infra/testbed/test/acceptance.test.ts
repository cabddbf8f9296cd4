/**
 * Issue 30 at the edge: the acceptance routes are routed (settings for staff only), the payment
 * provider's webhook reaches the order service with its raw body untouched (the signature verifies
 * there), and an acceptance reaches the customer's open page on the live order stream.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { ACCEPTANCE_MESSAGES } from '@decor/contracts';
import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { gatewayTestEnv, openSse, orderEvents, type SseStream } from '@decor/gateway/testing';
import type { ServiceApp } from '@decor/kit';
import { call, serviceEnv } from '@decor/kit/testing';
import {
  addCustomer,
  type Order,
  offerLapsed,
  qboSynced,
  startOrder,
  stopAndClean,
  submitted,
  type TestCustomer,
  tokenFor,
} from '@decor/order/testing';
import { testEndpoints } from '@decor/stack';

const SIGNATURE_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** This file's own key: the shared emulator keeps each key's PaymentIntents apart. */
const SECRET_KEY = `sk_test_gateway_accept_${randomBytes(6).toString('hex')}`;

let order: Order;
let gateway: ServiceApp;
let api: string;
let alice: TestCustomer;
const streams: SseStream[] = [];

/** A `Stripe-Signature` header as Stripe makes one: t=<seconds>,v1=<HMAC-SHA256 of "t.payload">. */
const stripeSignature = (payload: string, secret: string) => {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
};

beforeAll(async () => {
  const payments = testEndpoints().payments;
  order = await startOrder({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_API_URL: payments.url,
    STRIPE_WEBHOOK_SECRET: payments.webhookSecret,
    PAYMENTS_FRAME_URL: `${payments.url}/elements`,
  });
  const env = await serviceEnv('order');
  gateway = await buildGateway(
    loadGatewayConfig({ ...gatewayTestEnv(env), ORDER_SERVICE_URL: order.url, GATEWAY_CACHE_TTL_MS: '0' }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  api = `${await gateway.listen({ port: 0, host: '127.0.0.1' })}/api`;
  await gateway.sessionRevocations.whenCaughtUp(10_000);
  alice = await addCustomer(order);
}, 120_000);
afterAll(async () => {
  for (const s of streams) s.close();
  await gateway?.close();
  await stopAndClean(order);
});

it('the settings are staff-only at the edge; the acceptance is routed to the order service', async () => {
  expect((await call(api, '/settings/acceptance', { token: alice.token })).status).toBe(403);
  const staff = await call(api, '/settings/acceptance', { token: tokenFor(order, 'admin') });
  expect(staff.status).toBe(200);
  expect(staff.body.result.agreementVersion).toBe(1);
  const { id } = await submitted(order, alice);
  const byStaff = await call(api, `/estimate/${id}/acceptance`, {
    method: 'POST',
    token: tokenFor(order, 'admin'),
    headers: { 'idempotency-key': 'k' },
    json: {
      estimateVersion: 'v',
      signerName: 'Staff',
      signature: SIGNATURE_PNG,
      agree: true,
      paymentMethod: 'pm_card_visa',
    },
  });
  expect(byStaff.status).toBe(403);
  expect(byStaff.body.message).toBe(ACCEPTANCE_MESSAGES.ownerOnly);
});

it("the customer's open page sees the acceptance live; the provider's webhook passes the edge byte for byte", async () => {
  const { id } = await submitted(order, alice);
  await qboSynced(order, 'estimate', id, 'created');
  const live = await openSse(`${api}/orders/events`, { token: alice.token });
  streams.push(live);
  expect(live.status).toBe(200);
  await live.until((m) => m.some((e) => e.event === 'ready'), 20_000, 'ready');

  const view = await call(api, `/estimate/${id}/acceptance`, { token: alice.token });
  expect(view.body.result.state).toBe('awaiting');
  const accepted = await call(api, `/estimate/${id}/acceptance`, {
    method: 'POST',
    token: alice.token,
    headers: { 'idempotency-key': randomBytes(8).toString('hex') },
    json: {
      estimateVersion: view.body.result.estimateVersion,
      signerName: 'Alice',
      signature: SIGNATURE_PNG,
      agree: true,
      paymentMethod: 'pm_card_visa',
    },
  });
  expect(accepted.status).toBe(201);
  const seen = await live.until(
    (m) => orderEvents(m).some((e) => e.type === 'EstimateAccepted' && e.id === id),
    20_000,
    'EstimateAccepted on the live stream',
  );
  expect(orderEvents(seen).find((e) => e.type === 'EstimateAccepted')).toMatchObject({
    orderType: 'estimate',
    status: 'Open',
  });

  // The provider cancels the authorisation and says so, signed over the exact bytes it sends
  // (spacing and key order included: a re-serialised body would not verify).
  const intentId = (await order.ctx.estimates.findById(id).lean())?.deposit?.intentId ?? '';
  expect((await order.ctx.payments.cancel(intentId)).status).toBe('canceled');
  const intent = { id: intentId, object: 'payment_intent', status: 'canceled' };
  const payload = `{\n  "id": "evt_${randomBytes(8).toString('hex')}",  "object": "event",\n  "type": "payment_intent.canceled",\n  "data": { "object": ${JSON.stringify(intent)} }\n}`;
  const webhook = (signature: string) =>
    fetch(`${api}/payments/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
  const secret = testEndpoints().payments.webhookSecret;
  expect((await webhook(stripeSignature(payload, 'whsec_forged'))).status).toBe(400);
  const ok = await webhook(stripeSignature(payload, secret));
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ received: true, handled: true });
  await live.until(
    (m) => orderEvents(m).some((e) => e.type === 'EstimateDepositChanged' && e.id === id),
    20_000,
    'the released deposit on the live stream',
  );
  const after = await call(api, `/estimate/${id}/acceptance`, { token: alice.token });
  expect(after.body.result.accepted.depositState).toBe('released');
});

it("an offer's end and staff's extension reach the customer's open page live; the extension is staff-only and documented", async () => {
  const { id } = await submitted(order, alice);
  await qboSynced(order, 'estimate', id, 'created');
  const live = await openSse(`${api}/orders/events`, { token: alice.token });
  streams.push(live);
  await live.until((m) => m.some((e) => e.event === 'ready'), 20_000, 'ready');

  await offerLapsed(order, id);
  await live.until(
    (m) => orderEvents(m).some((e) => e.type === 'EstimateOfferExpired' && e.id === id),
    20_000,
    'EstimateOfferExpired on the live stream',
  );
  const expired = await call(api, `/estimate?acceptance=expired&UserId=${alice.id}`, {
    token: tokenFor(order, 'admin'),
  });
  expect(expired.body.result.map((r: { id: string }) => r.id)).toContain(id);

  const path = `/estimate/${id}/acceptance/extend`;
  expect((await call(api, path, { method: 'POST', token: alice.token, json: { days: 7 } })).status).toBe(403);
  const extended = await call(api, path, {
    method: 'POST',
    token: tokenFor(order, 'admin'),
    json: { days: 7 },
  });
  expect(extended.status).toBe(200);
  expect(extended.body.result.state).toBe('awaiting');
  await live.until(
    (m) => orderEvents(m).some((e) => e.type === 'EstimateOfferExtended' && e.id === id),
    20_000,
    'EstimateOfferExtended on the live stream',
  );

  const docs = (await (await fetch(`${api}/docs/json`)).json()) as {
    paths: Record<string, Record<string, { tags?: string[] }>>;
  };
  expect(docs.paths['/api/estimate/{id}/acceptance/extend']?.post?.tags).toEqual(['order']);
});
