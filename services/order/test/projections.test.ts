/** What the service keeps from other services' events: carts, the trucking fee and users. */
import { TruckingFeeChanged, UserCreated } from '@decor/contracts';
import { newEvent, publishEnvelopes } from '@decor/kit';
import { eventually, RUN_ID } from '@decor/kit/testing';
import { TRUCKING_FEE_DOC } from '../src/store/projection-models';
import {
  addCustomer,
  cartProjected,
  cartState,
  customerWithCart,
  deleteCart,
  estimateBody,
  line,
  newId,
  type Order,
  publish,
  publishCart,
  request,
  startOrder,
  stopAndClean,
  submit,
  tokenFor,
} from './support';

let service: Order;

beforeAll(async () => {
  service = await startOrder();
});

afterAll(() => stopAndClean(service));

describe('carts (CartChanged, CartDeleted)', () => {
  it("keeps each cart's full state by cart id, with its customer", async () => {
    const userId = newId();
    const cart = cartState(userId, [
      line('SEA-CH-001', 2, 1250, { qboId: '41' }),
      line('BAR-FR-001', 1, 8000),
    ]);
    const revision = await publishCart(service, cart);
    const stored = await cartProjected(service, cart.id, revision);
    expect(stored).toMatchObject({
      _id: cart.id,
      userId,
      cartName: 'My cart',
      isActive: true,
      didCheckOut: false,
      totalCents: 10_500,
      revision,
      deleted: false,
    });
    expect(stored.lines).toEqual([
      { ...cart.lines[0], qboId: '41' },
      { ...cart.lines[1], qboId: null },
    ]);
  });

  it('never goes back to an older state, whatever order the events come in', async () => {
    const userId = newId();
    const cart = cartState(userId, [line('A', 1, 100)]);
    await cartProjected(service, cart.id, await publishCart(service, cart, 5));
    // An older state (revision 4) arrives late, then another cart of the same customer (same
    // partition, so handled after it): once that one is in, revision 4 was seen and ignored.
    await publishCart(service, { ...cart, cartName: 'Old name', lines: [] }, 4);
    const marker = cartState(userId, []);
    await cartProjected(service, marker.id, await publishCart(service, marker, 6));
    const stored = await service.ctx.carts.findById(cart.id).lean();
    expect(stored).toMatchObject({ cartName: 'My cart', revision: 5 });
    expect(stored?.lines).toHaveLength(1);
  });

  it('applies a change that shares its revision with another event of the same write', async () => {
    const userId = newId();
    const cart = cartState(userId, [line('A', 1, 100)]);
    await cartProjected(service, cart.id, await publishCart(service, cart, 3));
    await publishCart(service, { ...cart, isActive: false }, 3);
    await eventually(
      () =>
        service.ctx.carts
          .findById(cart.id)
          .lean()
          .then((c) => (c?.isActive === false ? c : undefined)),
      15_000,
      'the same-revision change',
    );
  });

  it('keeps a deleted cart as a tombstone that an older CartChanged cannot revive', async () => {
    const { customer, cart } = await customerWithCart(service, [line('A', 1, 100)]);
    const deletedAt = await deleteCart(service, cart);
    await cartProjected(service, cart.id, deletedAt);
    await publishCart(service, cart, deletedAt - 1);
    const marker = cartState(customer.id, []);
    await cartProjected(service, marker.id, await publishCart(service, marker));
    expect(await service.ctx.carts.findById(cart.id).lean()).toMatchObject({
      deleted: true,
      revision: deletedAt,
    });
    const res = await submit(service, customer.token, estimateBody(cart.id));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Cart not found');
  });
});

describe('trucking fee (TruckingFeeChanged)', () => {
  it('uses the default of $350 until the catalogue announces a fee, then the announced one', async () => {
    const before = await customerWithCart(service, [line('A', 1, 10_000)]);
    const first = await submit(service, before.customer.token, estimateBody(before.cart.id));
    expect(first.status).toBe(201);
    const firstView = await request(service.url, `/estimate/${first.body.result.id}`, {
      token: before.customer.token,
    });
    expect(firstView.body.result).toMatchObject({
      subtotal: 100,
      truckingFee: 350,
      salesTax: 36.45,
      total: 486.45,
    });

    await publish(service, TruckingFeeChanged, '1', { id: '1', valueCents: 42_550 });
    await eventually(
      () =>
        service.ctx.truckingFee
          .findById(TRUCKING_FEE_DOC)
          .lean()
          .then((f) => (f?.valueCents === 42_550 ? f : undefined)),
      15_000,
      'the new fee',
    );
    const after = await customerWithCart(service, [line('A', 1, 10_000)]);
    const second = await submit(service, after.customer.token, estimateBody(after.cart.id));
    const secondView = await request(service.url, `/estimate/${second.body.result.id}`, {
      token: tokenFor(service, 'admin'),
    });
    // tax = round((10000 + 42550) × 0.081) = round(4256.55) = 4257
    expect(secondView.body.result).toMatchObject({
      subtotal: 100,
      truckingFee: 425.5,
      salesTax: 42.57,
      total: 568.07,
    });
  });
});

describe('users (UserCreated)', () => {
  it('keeps id, e-mail, display name, company id and company name, once per event', async () => {
    const userId = newId();
    const companyId = newId();
    const event = newEvent(UserCreated, {
      aggregateId: userId,
      correlationId: 'user',
      payload: {
        userId,
        email: 'lee@example.com',
        displayName: 'Lee Park',
        permissions: 'customer',
        companyId,
        ownCompany: 'Evergreen Weddings',
      },
    });
    await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, [event, event]);
    const stored = await eventually(
      () =>
        service.ctx.users
          .findById(userId)
          .lean()
          .then((u) => u ?? undefined),
      15_000,
      'the user',
    );
    expect(stored).toMatchObject({
      email: 'lee@example.com',
      displayName: 'Lee Park',
      permissions: 'customer',
      companyId,
      ownCompany: 'Evergreen Weddings',
    });
    // Both copies handled (a later user proves the partition moved on); the event counted once.
    await addCustomer(service);
    expect((await service.ctx.users.findById(userId).lean())?.appliedEvents).toEqual([event.id]);
  });
});
