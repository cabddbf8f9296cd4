import { randomBytes } from 'node:crypto';
import {
  type AggregateType,
  type EventContract,
  type EventEnvelope,
  ProductUpserted,
} from '@decor/contracts';
import { newEvent, publishEnvelopes, type StartedService, startService, waitForCatchUp } from '@decor/kit';
import { type Answer, call, RUN_ID, serviceEnv, topicEvents } from '@decor/kit/testing';
import type { Static } from '@sinclair/typebox';
import { cartService } from '../src/app';
import { loadCartConfig } from '../src/config';
import type { CartContext } from '../src/context';

export { type Answer, call, RUN_ID };

export type CartServiceUnderTest = StartedService<CartContext>;

/** A cart service of this test file, in-process, on the file's own database and topics. */
export async function startCart(extra: Record<string, string> = {}): Promise<CartServiceUnderTest> {
  return startService(cartService(loadCartConfig(await serviceEnv('cart', extra))), { exit: () => {} });
}

export async function stopAndClean(...services: (CartServiceUnderTest | undefined)[]): Promise<void> {
  const running = services.filter((s): s is CartServiceUnderTest => s !== undefined);
  // Each consumer's disconnect waits out its fetch long-poll (up to 5 s); the kit's shutdown stops
  // them one after another, so stop them all at once first (stopping again is a no-op).
  await Promise.all(running.flatMap((s) => s.consumers.map((c) => c.stop())));
  await running[0]?.ctx.connection.dropDatabase();
  await Promise.all(running.map((s) => s.shutdown('test over')));
}

export type Role = 'customer' | 'admin' | 'superadmin';

export const newUserId = () => randomBytes(12).toString('hex');

export interface TestUser {
  id: string;
  token: string;
}

export function userFor(service: CartServiceUnderTest, permissions: Role, id = newUserId()): TestUser {
  return {
    id,
    token: service.app.signToken({ id, permissions, email: `${permissions}-${id}@decor.example` }),
  };
}

/** Publishes events to this file's topic of their aggregate, as another service's relay would. */
export async function publish(service: CartServiceUnderTest, events: EventEnvelope[]): Promise<void> {
  await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, events);
}

export function event<C extends EventContract>(
  contract: C,
  aggregateId: string,
  payload: Static<C['payload']>,
): EventEnvelope {
  return newEvent(contract, { aggregateId, payload, correlationId: `test-${contract.type}` });
}

/** Waits until the cart service's consumer `name` has handled everything now on `aggregate`'s topic. */
export async function caughtUp(service: CartServiceUnderTest, name: string, aggregate: AggregateType) {
  const admin = service.ctx.kafka.admin();
  await admin.connect();
  try {
    const done = await waitForCatchUp({
      admin,
      connection: service.ctx.connection,
      groupId: `${RUN_ID}.cart.${name}`,
      topic: `${RUN_ID}.${aggregate}`,
      timeoutMs: 20_000,
    });
    if (!done) throw new Error(`consumer ${name} did not catch up with ${aggregate}`);
  } finally {
    await admin.disconnect();
  }
}

export interface TestProduct {
  sku: string;
  name: string;
  priceCents: number;
  quantity: number;
  qboId?: string;
}

export function productEvent(p: TestProduct): EventEnvelope {
  return event(ProductUpserted, p.sku, {
    sku: p.sku,
    name: p.name,
    description: `${p.name} for events`,
    priceCents: p.priceCents,
    quantity: p.quantity,
    category: 'SEATING',
    subcategory: 'Chairs',
    images: [],
    ...(p.qboId ? { qboId: p.qboId } : {}),
  });
}

/** Puts products into the catalogue topic and waits until the cart service's projection has them. */
export async function seedProducts(service: CartServiceUnderTest, products: TestProduct[]): Promise<void> {
  await publish(service, products.map(productEvent));
  await caughtUp(service, 'products', 'catalogue');
}

/** The file's cart topic read from the start until `done` says enough (see `topicEvents`). */
export function cartEvents(
  service: CartServiceUnderTest,
  done: (events: EventEnvelope[]) => boolean,
  timeoutMs = 15_000,
): Promise<EventEnvelope[]> {
  return topicEvents(service.ctx.kafka, `${RUN_ID}.cart`, done, { timeoutMs });
}

/** The caller's HTTP client for one service instance. */
export function client(base: string, token?: string) {
  return (path: string, init: { method?: string; json?: unknown } = {}): Promise<Answer> =>
    call(base, path, { ...init, token });
}

/** The customer's active cart (GET /cart?isActive=true). */
export async function activeCart(base: string, user: TestUser) {
  const res = await call(base, '/cart?isActive=true', { token: user.token });
  expect(res.status).toBe(200);
  expect(res.body.result).toHaveLength(1);
  return res.body.result[0] as { id: string; cartName: string; CartProducts: unknown[] };
}
