import { randomBytes } from 'node:crypto';
import {
  CartChanged,
  CartDeleted,
  type CartLineState,
  type CartState,
  type EventContract,
  type EventEnvelope,
  ProductUpserted,
  QboRecordSynced,
  UserCreated,
} from '@decor/contracts';
import { fetchTopicOffsets, newEvent, publishEnvelopes, type StartedService, startService } from '@decor/kit';
import {
  type Answer,
  call,
  consumerCaughtUp,
  eventually,
  outboxesRelayed,
  RUN_ID,
  serviceEnv,
  testEndpoints,
  topicEvents,
} from '@decor/kit/testing';
import type { Static } from '@sinclair/typebox';
import { orderService } from '../src/app';
import { loadOrderConfig } from '../src/config';
import type { OrderContext } from '../src/context';
import { sweepExpiredOffers } from '../src/jobs/offer-expiry-sweeper';

export type { Answer };
export type Order = StartedService<OrderContext>;
type CartLine = Static<typeof CartLineState>;
type Cart = Static<typeof CartState>;

/** A 24-hex id like the other services' ObjectIds. */
export const newId = () => randomBytes(12).toString('hex');

/** The test infra's S3 (the signed agreements' PDFs go there), this run's own folder. */
function s3Env(): Record<string, string> {
  const { s3 } = testEndpoints();
  return {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AGREEMENT_KEY_PREFIX: `${RUN_ID}/agreements`,
  };
}

export async function startOrder(extra: Record<string, string> = {}): Promise<Order> {
  return startService(orderService(loadOrderConfig(await serviceEnv('order', { ...s3Env(), ...extra }))), {
    exit: () => {},
  });
}

export async function stopAndClean(service: Order | undefined): Promise<void> {
  if (!service) return;
  await service.ctx.connection.dropDatabase();
  await service.shutdown('test over');
}

export type Role = 'customer' | 'admin' | 'superadmin';

export function tokenFor(service: Order, permissions: Role, id = newId()): string {
  return service.app.signToken({ id, permissions, email: `${permissions}-${id}@decor.example` });
}

/** Real HTTP to the instance (the kit's `call`). */
export const request = call;

/** Publishes one event onto this run's topic of its aggregate, as the owning service's relay would. */
export async function publish<C extends EventContract>(
  service: Order,
  contract: C,
  aggregateId: string,
  payload: Static<C['payload']>,
): Promise<EventEnvelope<Static<C['payload']>>> {
  const event = newEvent(contract, { aggregateId, payload, correlationId: `test-${newId()}` });
  await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, [event]);
  return event;
}

export function line(
  productId: string,
  qty: number,
  priceCents: number,
  extra: Partial<CartLine> = {},
): CartLine {
  return {
    id: newId(),
    productId,
    name: `Product ${productId}`,
    description: `About ${productId}`,
    qty,
    priceCents,
    ...extra,
  };
}

export interface TestCustomer {
  id: string;
  token: string;
  email: string;
  displayName: string;
  company: string;
}

/** A customer as the user service announces it (UserCreated), once the projection has it. */
export async function addCustomer(
  service: Order,
  company = `Company ${newId().slice(0, 6)}`,
): Promise<TestCustomer> {
  const id = newId();
  const customer = {
    id,
    token: tokenFor(service, 'customer', id),
    email: `customer-${id}@decor.example`,
    displayName: `Pat ${id.slice(0, 4)}`,
    company,
  };
  await publish(service, UserCreated, id, {
    userId: id,
    email: customer.email,
    displayName: customer.displayName,
    permissions: 'customer',
    companyId: newId(),
    ownCompany: company,
  });
  await eventually(
    () =>
      service.ctx.users
        .findById(id)
        .lean()
        .then((u) => u ?? undefined),
    15_000,
    'the user',
  );
  return customer;
}

/** Each customer's cart revision, as the cart service counts it (one counter per customer). */
const revisions = new Map<string, number>();

export function nextRevision(userId: string): number {
  const next = (revisions.get(userId) ?? 0) + 1;
  revisions.set(userId, next);
  return next;
}

export function cartState(userId: string, lines: CartLine[], overrides: Partial<Cart> = {}): Cart {
  return {
    id: newId(),
    userId,
    cartName: 'My cart',
    isActive: true,
    didCheckOut: false,
    createdAt: new Date().toISOString(),
    lines,
    totalCents: lines.reduce((sum, l) => sum + l.priceCents * l.qty, 0),
    ...overrides,
  };
}

/** Publishes the cart's state (CartChanged) with the customer's next revision; returns that revision. */
export async function publishCart(
  service: Order,
  cart: Cart,
  revision = nextRevision(cart.userId),
): Promise<number> {
  // The catalogue announced the cart's products before anyone could add them: bookings need their stock.
  for (const l of cart.lines) {
    if (!(await service.ctx.products.exists({ _id: l.productId })))
      await catalogueProduct(service, l.productId, l.priceCents, STOCK_OF_UNLISTED, { name: l.name });
  }
  await publish(service, CartChanged, cart.userId, { cart, revision });
  return revision;
}

/** Units the shop owns of a product a test put in a cart without announcing it first. */
export const STOCK_OF_UNLISTED = 100_000;

export async function deleteCart(service: Order, cart: Cart): Promise<number> {
  const revision = nextRevision(cart.userId);
  await publish(service, CartDeleted, cart.userId, { userId: cart.userId, cartId: cart.id, revision });
  return revision;
}

/** Waits until the carts projection holds the cart at `revision` (or later). */
export async function cartProjected(service: Order, cartId: string, revision: number) {
  return eventually(
    () =>
      service.ctx.carts
        .findById(cartId)
        .lean()
        .then((c) => (c && c.revision >= revision ? c : undefined)),
    15_000,
    `cart ${cartId} at revision ${revision}`,
  );
}

/** A customer with an active cart of these lines, both known to the service. */
export async function customerWithCart(service: Order, lines: CartLine[], overrides: Partial<Cart> = {}) {
  const customer = await addCustomer(service);
  const cart = cartState(customer.id, lines, overrides);
  await cartProjected(service, cart.id, await publishCart(service, cart));
  return { customer, cart };
}

/** A valid order request body for the cart. */
export function estimateBody(cartId: string, extra: Record<string, unknown> = {}) {
  return {
    CartId: cartId,
    status: 'Pending',
    groupName: 'Smith Wedding',
    eventDate: '2031-06-14',
    location: 'Grand Hall',
    ...extra,
  };
}

export function submit(service: Order, token: string, body: unknown, headers: Record<string, string> = {}) {
  return request(service.url, '/estimate', { method: 'POST', json: body, token, headers });
}

/**
 * Every event on this run's order topic: counts the messages on it first, then reads until it has
 * them all, so a duplicate could not hide behind an early stop.
 */
export async function allOrderEvents(service: Order): Promise<EventEnvelope[]> {
  const topic = `${RUN_ID}.order`;
  const admin = service.ctx.kafkaAdmin;
  const offsets = await fetchTopicOffsets(admin, topic);
  const count = offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  return topicEvents(service.ctx.kafka, topic, (seen) => seen.length >= count, { timeoutMs: 20_000 });
}

/** A date `days` after today (UTC, the service's default business time zone). */
export function daysFromToday(days: number): string {
  const date = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  return date.toISOString().slice(0, 10);
}

/** One estimate of `customer`, from a new active cart of theirs. */
export async function submitted(
  service: Order,
  customer: TestCustomer,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; DocNumber: string }> {
  const cart = cartState(customer.id, [line('SEA-CH-001', 2, 1250)]);
  await cartProjected(service, cart.id, await publishCart(service, cart));
  const res = await submit(service, customer.token, estimateBody(cart.id, extra));
  if (res.status !== 201) throw new Error(`submission answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result;
}

/** accounting-sync's report of a QuickBooks write, once our accounting consumer has handled it. */
export async function qboSynced(
  service: Order,
  kind: 'estimate' | 'invoice',
  recordId: string,
  action: 'created' | 'updated' | 'sent' | 'voided' | 'rejected',
  qboId = '145',
  syncToken = '0',
): Promise<void> {
  await publish(service, QboRecordSynced, `${kind}:${recordId}`, {
    kind,
    recordId,
    qboId,
    syncToken,
    action,
    revision: 1,
  });
  await consumerCaughtUp(service.ctx, 'accounting', 'accounting');
}

/** The events on this run's order topic about one order, in order, once its outbox is relayed. */
export async function eventsOf(service: Order, aggregateId: string): Promise<EventEnvelope[]> {
  await outboxesRelayed([service.ctx.estimates, service.ctx.invoices], { _id: aggregateId });
  return (await allOrderEvents(service)).filter((e) => e.aggregateId === aggregateId);
}

export const orderCall = (
  service: Order,
  method: string,
  path: string,
  token: string,
  json?: unknown,
  headers: Record<string, string> = {},
) => request(service.url, path, { method, token, json, headers });

/** A product as the catalogue announces it (ProductUpserted), once the products projection has it. */
export async function catalogueProduct(
  service: Order,
  sku: string,
  priceCents: number,
  quantity: number,
  extra: { name?: string; description?: string; qboId?: string } = {},
): Promise<void> {
  await publish(service, ProductUpserted, sku, {
    sku,
    name: extra.name ?? `Product ${sku}`,
    description: extra.description ?? `About ${sku}`,
    priceCents,
    quantity,
    category: 'Tables',
    subcategory: 'Round',
    images: [],
    ...(extra.qboId ? { qboId: extra.qboId } : {}),
  });
  await eventually(
    () =>
      service.ctx.products
        .findById(sku)
        .lean()
        .then((p) => (p && p.priceCents === priceCents && p.quantity === quantity ? p : undefined)),
    15_000,
    `product ${sku}`,
  );
}

/** Issue 30: a 1×1 PNG, the drawn signature of test acceptances. */
export const SIGNATURE_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The order service's settings for the shared payments emulator, under this test file's own key. */
export function paymentsSettings(name: string): Record<string, string> {
  const { payments } = testEndpoints();
  return {
    STRIPE_SECRET_KEY: `sk_test_${name}_${randomBytes(6).toString('hex')}`,
    STRIPE_API_URL: payments.url,
    STRIPE_WEBHOOK_SECRET: payments.webhookSecret,
    PAYMENTS_FRAME_URL: `${payments.url}/elements`,
  };
}

/** A valid acceptance (POST /estimate/:id/acceptance) of `estimateVersion`, paid with Stripe's test card. */
export const acceptanceBody = (estimateVersion: string, extra: Record<string, unknown> = {}) => ({
  estimateVersion,
  signerName: 'Alice Customer',
  signature: SIGNATURE_PNG,
  agree: true,
  paymentMethod: 'pm_card_visa',
  ...extra,
});

/** The customer's acceptance of estimate `id` as they reviewed it (GET, then POST with a new key). */
export async function acceptAsReviewed(service: Order, customer: TestCustomer, id: string): Promise<Answer> {
  const path = `/estimate/${id}/acceptance`;
  const view = await orderCall(service, 'GET', path, customer.token);
  return orderCall(service, 'POST', path, customer.token, acceptanceBody(view.body.result.estimateVersion), {
    'idempotency-key': randomBytes(8).toString('hex'),
  });
}

/** Issue 30: estimate `id`'s offer ended a moment ago (as if its days had passed); sweeps are the caller's. */
export const endOffer = (service: Order, id: string) =>
  service.ctx.estimates.updateOne({ _id: id }, { $set: { 'offer.expiresAt': new Date(Date.now() - 1000) } });

/** …and swept at once: marked expired (EstimateOfferExpired), its holds released. */
export async function offerLapsed(service: Order, id: string): Promise<void> {
  await endOffer(service, id);
  await sweepExpiredOffers(service.ctx);
}
