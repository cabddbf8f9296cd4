/** GET /auth/jwt shows a customer's active cart, learnt from the cart service's CartChanged events. */
import { CartChanged, type PayloadOf } from '@decor/contracts';
import { newEvent, publishEnvelopes } from '@decor/kit';
import { consumerCaughtUp, eventually, RUN_ID } from '@decor/kit/testing';
import {
  call,
  createUser,
  signIn,
  startUserService,
  stopAndClean,
  type UserServiceUnderTest,
} from './support';

let service: UserServiceUnderTest;
beforeAll(async () => {
  service = await startUserService();
});
afterAll(() => stopAndClean(service));

type CartState = PayloadOf<typeof CartChanged>['cart'];

function cartState(userId: string, id: string, over: Partial<CartState> = {}): CartState {
  return {
    id,
    userId,
    cartName: 'My Cart',
    isActive: true,
    didCheckOut: false,
    createdAt: new Date().toISOString(),
    lines: [],
    totalCents: 0,
    ...over,
  };
}

async function publish(...changes: { cart: CartState; revision: number }[]): Promise<void> {
  const events = changes.map((payload) =>
    newEvent(CartChanged, { aggregateId: payload.cart.userId, correlationId: 'test', payload }),
  );
  await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, events);
}

async function sessionOf(email: string) {
  const token = (await signIn(service.url, email, 'pw-123')).body.result.token as string;
  return async () => (await call(service.url, '/auth/jwt', { token })).body.result;
}

it('shows the active cart with its name and total in dollars, and follows set-active and checkout', async () => {
  const me = await createUser(service, 'customer', 'pw-123');
  const session = await sessionOf(me.email);
  expect((await session()).cart).toBeNull();

  await publish({ cart: cartState(me.id, 'cart-a', { totalCents: 12550, cartName: 'Gala' }), revision: 1 });
  await eventually(
    async () => ((await session()).cart?.id === 'cart-a' ? true : undefined),
    10_000,
    'first cart',
  );
  expect((await session()).cart).toEqual({ id: 'cart-a', cartName: 'Gala', cartTotal: 125.5 });

  // One write of the cart service: A inactive, then B active (same revision).
  await publish(
    { cart: cartState(me.id, 'cart-a', { isActive: false, totalCents: 12550 }), revision: 2 },
    { cart: cartState(me.id, 'cart-b', { cartName: 'Wedding', totalCents: 900 }), revision: 2 },
  );
  await eventually(async () => ((await session()).cart?.id === 'cart-b' ? true : undefined), 10_000, 'B');
  expect((await session()).cart).toEqual({ id: 'cart-b', cartName: 'Wedding', cartTotal: 9 });

  // A newer state (say, a line added) applies; a replayed older one after it changes nothing.
  await publish({ cart: cartState(me.id, 'cart-b', { cartName: 'Wedding', totalCents: 4500 }), revision: 3 });
  await publish({ cart: cartState(me.id, 'cart-a', { totalCents: 1 }), revision: 1 });
  await consumerCaughtUp(service.ctx, 'carts', 'cart', 10_000);
  expect((await session()).cart).toEqual({ id: 'cart-b', cartName: 'Wedding', cartTotal: 45 });
});

it('staff sessions carry no cart', async () => {
  const admin = await createUser(service, 'admin', 'pw-123');
  expect((await (await sessionOf(admin.email))()).cart).toBeUndefined();
});
