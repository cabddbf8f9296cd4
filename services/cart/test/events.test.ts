/**
 * What the cart service does with other services' events, and its own event stream under races:
 * UserCreated gives a customer a first cart; EstimateSubmitted checks a cart out exactly once; 20
 * parallel "set active" calls (on one instance, and spread over two) leave exactly one active cart,
 * and replaying the CartChanged stream says the same.
 */
import { randomUUID } from 'node:crypto';
import { EstimateSubmitted, type EventEnvelope, UserCreated } from '@decor/contracts';
import { applyOnce, type EventContext, silentLogger } from '@decor/kit';
import { eventually } from '@decor/kit/testing';
import { checkoutConsumer } from '../src/events/handlers';
import {
  type Answer,
  activeCart,
  type CartServiceUnderTest,
  call,
  cartEvents,
  caughtUp,
  event,
  newUserId,
  publish,
  seedProducts,
  startCart,
  stopAndClean,
  type TestUser,
  userFor,
} from './support';

let one: CartServiceUnderTest;
let two: CartServiceUnderTest;

const CHAIR = { sku: 'SEA-CH-004', name: 'White Folding Chair', priceCents: 325, quantity: 100 };

beforeAll(async () => {
  [one, two] = await Promise.all([startCart(), startCart()]);
  await seedProducts(one, [CHAIR]);
});

afterAll(() => stopAndClean(one, two));

const as = (user: TestUser, path: string, init: { method?: string; json?: unknown } = {}, base = one.url) =>
  call(base, path, { ...init, token: user.token });

function expectRefused(res: Answer, status: number, message: string) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { message } });
}

async function cartsOf(user: TestUser, query = '?limit=100') {
  const res = await as(user, `/cart${query}`);
  expect(res.status).toBe(200);
  return res.body.result as { id: string; cartName: string; isActive: boolean; didCheckOut: boolean }[];
}

function submitted(userId: string, cartId: string) {
  return event(EstimateSubmitted, randomUUID(), {
    estimateId: randomUUID(),
    docNumber: '1001',
    status: 'Pending',
    userId,
    cartId,
    customer: { email: 'c@decor.example', displayName: 'C' },
    details: { groupName: 'Gala', eventDate: '2031-05-01', location: 'Hall' },
    lines: [],
    subtotalCents: 0,
    truckingCents: 0,
    taxCents: 0,
    totalCents: 0,
    submittedAt: new Date().toISOString(),
  });
}

interface Changed {
  cart: { id: string; isActive: boolean; didCheckOut: boolean; cartName: string };
  revision: number;
}
const changesOf = (events: EventEnvelope[], userId: string) =>
  events.filter((e) => e.aggregateId === userId && e.type === 'CartChanged').map((e) => e.payload as Changed);

/** Replays a customer's CartChanged/CartDeleted stream: which carts does it say are active? */
function activeByReplay(events: EventEnvelope[], userId: string): string[] {
  const active = new Map<string, boolean>();
  for (const e of events.filter((x) => x.aggregateId === userId)) {
    if (e.type === 'CartChanged') {
      const { cart } = e.payload as Changed;
      active.set(cart.id, cart.isActive);
    } else if (e.type === 'CartDeleted') {
      active.delete((e.payload as { cartId: string }).cartId);
    }
  }
  return [...active].filter(([, on]) => on).map(([id]) => id);
}

async function finalRevision(userId: string): Promise<number> {
  const doc = await one.ctx.customerCarts.findById(userId, { revision: 1 }).lean();
  return doc?.revision ?? 0;
}

/**
 * The customer's events up to `revision`. Every write here ends with the event of the cart that is
 * active after it (set active: old cart first, then the new one), so that one marks the end.
 */
const streamUpTo = (userId: string, revision: number) =>
  cartEvents(one, (all) => changesOf(all, userId).some((c) => c.revision >= revision && c.cart.isActive));

describe('UserCreated', () => {
  it('gives a new customer their first active cart and announces it; staff get none; a repeat changes nothing', async () => {
    const customer = newUserId();
    const staff = newUserId();
    const created = event(UserCreated, customer, {
      userId: customer,
      email: 'new@decor.example',
      displayName: 'New Customer',
      permissions: 'customer',
    });
    await publish(one, [
      created,
      event(UserCreated, staff, {
        userId: staff,
        email: 's@decor.example',
        displayName: 'S',
        permissions: 'admin',
      }),
      { ...created },
    ]);
    await caughtUp(one, 'customers', 'user');
    const doc = await one.ctx.customerCarts.findById(customer).lean();
    expect(doc?.carts.map((c) => c.cartName)).toEqual(['My Cart']);
    expect(doc?.activeCartId).toBe(doc?.carts[0]?.id);
    expect(await one.ctx.customerCarts.findById(staff).lean()).toBeNull();

    const events = await streamUpTo(customer, 1);
    expect(changesOf(events, customer)).toEqual([
      expect.objectContaining({
        cart: expect.objectContaining({ id: doc?.activeCartId, isActive: true, cartName: 'My Cart' }),
        revision: 1,
      }),
    ]);
    // The customer's first call finds that cart rather than making another.
    const user = userFor(one, 'customer', customer);
    expect((await cartsOf(user)).map((c) => c.id)).toEqual([doc?.activeCartId]);
  });
});

describe('EstimateSubmitted', () => {
  it('checks the active cart out once and opens a new active cart, even when delivered twice', async () => {
    const user = userFor(one, 'customer');
    const cart = await activeCart(one.url, user);
    expect(
      (await as(user, `/cart/${cart.id}/cartProduct/${CHAIR.sku}`, { method: 'POST', json: { qty: 2 } }))
        .status,
    ).toBe(200);
    const spare = (await as(user, '/cart', { method: 'POST', json: { cartName: 'Spare' } })).body.result
      .id as string;

    const submission = submitted(user.id, cart.id);
    await publish(one, [submission, submission]);
    await caughtUp(one, 'checkouts', 'order');
    // A second submission of the same cart (another event id) finds it checked out already.
    await publish(one, [submitted(user.id, cart.id)]);
    await caughtUp(one, 'checkouts', 'order');

    const carts = await cartsOf(user);
    expect(carts).toHaveLength(3);
    const next = carts.find((c) => c.isActive);
    expect(next).toMatchObject({ cartName: 'My Cart', didCheckOut: false });
    expect(next?.id).not.toBe(cart.id);
    expect(carts.find((c) => c.id === cart.id)).toMatchObject({ isActive: false, didCheckOut: true });
    expect((await cartsOf(user, '?didCheckOut=true')).map((c) => c.id)).toEqual([cart.id]);
    expect((await cartsOf(user, '?didCheckOut=false')).map((c) => c.id).sort()).toEqual(
      [next?.id, spare].sort(),
    );

    const revision = await finalRevision(user.id);
    const changes = changesOf(await streamUpTo(user.id, revision), user.id);
    expect(
      changes.slice(-2).map((c) => [c.cart.id, c.cart.isActive, c.cart.didCheckOut, c.revision]),
    ).toEqual([
      [cart.id, false, true, revision],
      [next?.id, true, false, revision],
    ]);
    expect(changes.filter((c) => c.cart.didCheckOut)).toHaveLength(1);
  });

  it('checks an inactive cart out without touching the active one', async () => {
    const user = userFor(one, 'customer');
    const active = await activeCart(one.url, user);
    const other = (await as(user, '/cart', { method: 'POST', json: {} })).body.result.id as string;
    await publish(one, [submitted(user.id, other)]);
    await caughtUp(one, 'checkouts', 'order');
    const carts = await cartsOf(user);
    expect(carts.map((c) => [c.id, c.isActive, c.didCheckOut]).sort()).toEqual(
      [
        [active.id, true, false],
        [other, false, true],
      ].sort(),
    );
  });

  it('applies once when two instances handle the same event at the same time', async () => {
    const user = userFor(one, 'customer');
    const cart = await activeCart(one.url, user);
    const submission = submitted(user.id, cart.id);
    const ectx = (): EventContext => ({
      groupId: 'test',
      topic: 'order',
      partition: 0,
      offset: '0',
      attempt: 1,
      logger: silentLogger,
      heartbeat: async () => {},
      applyOnce: (model, filter, update, o) => applyOnce(model, filter, update, submission.id, o),
    });
    const handle = (s: CartServiceUnderTest) => {
      const handler = checkoutConsumer(s.ctx).handlers.EstimateSubmitted;
      if (!handler) throw new Error('no EstimateSubmitted handler');
      return handler(submission, ectx());
    };
    await Promise.all([handle(one), handle(two), handle(one), handle(two)]);
    const carts = await cartsOf(user);
    expect(carts).toHaveLength(2);
    expect(carts.filter((c) => c.didCheckOut).map((c) => c.id)).toEqual([cart.id]);
    expect(carts.filter((c) => c.isActive)).toHaveLength(1);
  });

  it('leaves a submitted cart as it is: no changes, no deletion; it can still be copied from', async () => {
    const user = userFor(one, 'customer');
    const cart = await activeCart(one.url, user);
    const line = (
      await as(user, `/cart/${cart.id}/cartProduct/${CHAIR.sku}`, { method: 'POST', json: { qty: 3 } })
    ).body.result.CartProducts[0].CartProductId as string;
    await publish(one, [submitted(user.id, cart.id)]);
    await caughtUp(one, 'checkouts', 'order');
    const next = await activeCart(one.url, user);
    expect(next.id).not.toBe(cart.id);

    const locked = 'This cart has been submitted and can no longer be changed';
    expectRefused(
      await as(user, `/cart/${cart.id}`, { method: 'PUT', json: { cartName: 'Again' } }),
      409,
      locked,
    );
    expectRefused(
      await as(user, `/cart/${cart.id}`, { method: 'PUT', json: { isActive: true } }),
      409,
      locked,
    );
    expectRefused(
      await as(user, `/cart/${cart.id}`, { method: 'PUT', json: { didCheckOut: false } }),
      409,
      locked,
    );
    expectRefused(
      await as(user, `/cart/${cart.id}/cartProduct/${CHAIR.sku}`, { method: 'POST', json: { qty: 1 } }),
      409,
      locked,
    );
    expectRefused(await as(user, `/cartProduct/${line}`, { method: 'DELETE' }), 409, locked);
    expectRefused(await as(user, `/cartProduct/deleteBulk?ids=${line}`, { method: 'DELETE' }), 409, locked);
    expectRefused(await as(user, `/cart/${next.id}/copy/${cart.id}`, { method: 'PUT' }), 409, locked);
    expectRefused(
      await as(user, '/saveBulk/cartProduct', {
        method: 'POST',
        json: [{ ProductId: CHAIR.sku, CartId: cart.id, qty: 1 }],
      }),
      409,
      locked,
    );
    expectRefused(
      await as(user, `/cart/${cart.id}`, { method: 'DELETE' }),
      409,
      'A submitted cart belongs to its order and cannot be deleted',
    );

    const copied = await as(user, `/cart/${cart.id}/copy/${next.id}`, { method: 'PUT' });
    expect(copied.status).toBe(200);
    expect(copied.body.result.CartProducts.map((l: { id: string; qty: number }) => [l.id, l.qty])).toEqual([
      [CHAIR.sku, 3],
    ]);
    const old = (await as(user, `/cart/${cart.id}`)).body.result[0];
    expect(old).toMatchObject({ didCheckOut: true, isActive: false, cartTotal: 9.75 });
  });
});

describe('set active under races', () => {
  async function customerWith21Carts() {
    const user = userFor(one, 'customer');
    await activeCart(one.url, user);
    const targets: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const res = await as(user, '/cart', { method: 'POST', json: { cartName: `Cart ${i}` } });
      targets.push(res.body.result.id);
    }
    return { user, targets };
  }

  async function expectOneActive(user: TestUser, ok: string[]) {
    const carts = await cartsOf(user);
    expect(carts).toHaveLength(21);
    const active = carts.filter((c) => c.isActive).map((c) => c.id);
    expect(active).toHaveLength(1);
    const doc = await one.ctx.customerCarts.findById(user.id, { activeCartId: 1, revision: 1 }).lean();
    expect(active[0]).toBe(doc?.activeCartId);
    expect(ok).toContain(active[0]);
    const events = await streamUpTo(user.id, doc?.revision ?? 0);
    expect(activeByReplay(events, user.id)).toEqual(active);
    // The newest event announcing an active cart names that cart.
    const lastActive = changesOf(events, user.id)
      .filter((c) => c.cart.isActive)
      .at(-1);
    expect(lastActive?.cart.id).toBe(active[0]);
  }

  it('20 parallel calls on one instance all succeed and leave exactly one active cart', async () => {
    const { user, targets } = await customerWith21Carts();
    const results = await Promise.all(
      targets.map((id) => as(user, `/cart/${id}`, { method: 'PUT', json: { isActive: true } })),
    );
    expect(results.map((r) => r.status)).toEqual(targets.map(() => 200));
    await expectOneActive(user, targets);
  });

  it('20 parallel calls spread over two instances leave exactly one active cart', async () => {
    const { user, targets } = await customerWith21Carts();
    const results = await Promise.all(
      targets.map((id, i) =>
        as(user, `/cart/${id}`, { method: 'PUT', json: { isActive: true } }, i % 2 ? two.url : one.url),
      ),
    );
    for (const r of results) {
      if (r.status !== 200) expectRefused(r, 409, 'The cart changed meanwhile; please try again');
    }
    const ok = targets.filter((_, i) => results[i]?.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    await expectOneActive(user, ok);
  });
});

describe('the outbox', () => {
  it('is emptied by the relay once the events are published', async () => {
    const user = userFor(one, 'customer');
    await activeCart(one.url, user);
    await eventually(
      async () => {
        const doc = await one.ctx.customerCarts.findById(user.id, { outbox: 1 }).lean();
        return doc?.outbox.length === 0 ? true : undefined;
      },
      10_000,
      'an empty outbox',
    );
  });
});
