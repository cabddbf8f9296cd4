/** The /cart routes over real HTTP: list, read, create, rename, set active, delete; who may do what. */
import type { EventEnvelope } from '@decor/contracts';
import {
  type Answer,
  type CartServiceUnderTest,
  call,
  cartEvents,
  newUserId,
  startCart,
  stopAndClean,
  type TestUser,
  userFor,
} from './support';

let service: CartServiceUnderTest;
let base: string;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let superadmin: TestUser;

beforeAll(async () => {
  service = await startCart();
  base = service.url;
  alice = userFor(service, 'customer');
  bob = userFor(service, 'customer');
  admin = userFor(service, 'admin');
  superadmin = userFor(service, 'superadmin');
});

afterAll(() => stopAndClean(service));

const as = (user: TestUser | undefined, path: string, init: { method?: string; json?: unknown } = {}) =>
  call(base, path, { ...init, token: user?.token });

function expectRefused(res: Answer, status: number, message: string) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { message } });
}

const VIEW_FIELDS = [
  'CartProducts',
  'UserId',
  'cartName',
  'cartTotal',
  'createdAt',
  'didCheckOut',
  'id',
  'isActive',
];
const missing = 'f'.repeat(24);

async function createCart(user: TestUser, json: unknown = { isActive: false }) {
  const res = await as(user, '/cart', { method: 'POST', json });
  expect(res.status).toBe(201);
  return res.body.result as { id: string; cartName: string; isActive: boolean; createdAt: string };
}

async function listOf(user: TestUser, query = '') {
  const res = await as(user, `/cart${query}`);
  expect(res.status).toBe(200);
  return {
    rows: res.body.result as { id: string; isActive: boolean; cartName: string }[],
    total: res.headers.get('total_count'),
  };
}

describe('a customer with no carts yet', () => {
  it('gets one active cart named My Cart on the first call', async () => {
    const carol = userFor(service, 'customer');
    const { rows, total } = await listOf(carol);
    expect(total).toBe('1');
    expect(rows).toHaveLength(1);
    const [cart] = rows as unknown as [Record<string, unknown>];
    expect(Object.keys(cart).sort()).toEqual(VIEW_FIELDS);
    expect(cart).toMatchObject({
      UserId: carol.id,
      cartName: 'My Cart',
      isActive: true,
      didCheckOut: false,
      cartTotal: 0,
      CartProducts: [],
    });
    expect(new Date(cart.createdAt as string).toISOString()).toBe(cart.createdAt);
    // Parallel first calls still make only one.
    const dave = userFor(service, 'customer');
    const firsts = await Promise.all(Array.from({ length: 5 }, () => listOf(dave)));
    expect(new Set(firsts.map((f) => f.rows[0]?.id)).size).toBe(1);
    expect((await listOf(dave)).total).toBe('1');
  });
});

describe('POST /cart', () => {
  it('creates an inactive cart with the trimmed name, or My Cart', async () => {
    const named = await createCart(alice, { cartName: '  Spring gala  ', isActive: false });
    expect(named).toMatchObject({
      cartName: 'Spring gala',
      isActive: false,
      didCheckOut: false,
      UserId: alice.id,
      CartProducts: [],
    });
    expect(named.id).toMatch(/^[0-9a-f]{24}$/);
    expect((await createCart(alice, {})).cartName).toBe('My Cart');
    const got = await as(alice, `/cart/${named.id}`);
    expect(got.body.result[0]).toMatchObject({ id: named.id, cartName: 'Spring gala', isActive: false });
  });

  it('refuses isActive: true, bad names and unknown fields', async () => {
    expectRefused(
      await as(alice, '/cart', { method: 'POST', json: { isActive: true } }),
      409,
      'A new cart is always inactive: set it active afterwards',
    );
    expectRefused(
      await as(alice, '/cart', { method: 'POST', json: { cartName: '   ' } }),
      400,
      'Cart name must not be empty',
    );
    expectRefused(
      await as(alice, '/cart', { method: 'POST', json: { cartName: 'x'.repeat(101) } }),
      400,
      'Cart name must be at most 100 characters',
    );
    expectRefused(
      await as(alice, '/cart', { method: 'POST', json: { cartName: 7 } }),
      400,
      'cartName must be a string',
    );
    expectRefused(
      await as(alice, '/cart', { method: 'POST', json: { didCheckOut: false } }),
      400,
      "Unknown field 'didCheckOut'",
    );
  });

  it('is for customers only', async () => {
    expectRefused(await as(undefined, '/cart', { method: 'POST', json: {} }), 401, 'Authentication required');
    for (const staff of [admin, superadmin]) {
      expectRefused(await as(staff, '/cart', { method: 'POST', json: {} }), 403, 'Only customers have carts');
    }
    const bad = await call(base, '/cart', { method: 'POST', json: {}, token: 'not.a.token' });
    expectRefused(bad, 401, 'Invalid session token');
  });
});

describe('GET /cart', () => {
  let erin: TestUser;
  let ids: string[];

  beforeAll(async () => {
    erin = userFor(service, 'customer');
    ids = [(await listOf(erin)).rows[0]?.id as string];
    for (const name of ['Beta', 'Alpha', 'Gamma']) ids.push((await createCart(erin, { cartName: name })).id);
  });

  it("lists the customer's own carts, newest first, with the total in total_count", async () => {
    const { rows, total } = await listOf(erin, '?didCheckOut=false&order=createdAt:DESC&limit=20&offset=0');
    expect(total).toBe('4');
    expect(rows.map((r) => r.id)).toEqual([...ids].reverse());
    expect(rows.filter((r) => r.isActive).map((r) => r.id)).toEqual([ids[0]]);
    expect((await listOf(erin)).rows.map((r) => r.id)).toEqual([...ids].reverse());
  });

  it('pages, sorts, filters by isActive, didCheckOut and name prefix', async () => {
    const page = await listOf(erin, '?limit=2&offset=1');
    expect(page.total).toBe('4');
    expect(page.rows.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect((await listOf(erin, '?order=createdAt:ASC')).rows.map((r) => r.id)).toEqual(ids);
    expect((await listOf(erin, '?order=cartName:ASC')).rows.map((r) => r.cartName)).toEqual([
      'Alpha',
      'Beta',
      'Gamma',
      'My Cart',
    ]);
    const inactive = await listOf(erin, '?isActive=false');
    expect(inactive.total).toBe('3');
    expect(inactive.rows.every((r) => !r.isActive)).toBe(true);
    expect((await listOf(erin, '?isActive=true')).rows.map((r) => r.id)).toEqual([ids[0]]);
    expect((await listOf(erin, '?didCheckOut=true')).total).toBe('0');
    expect((await listOf(erin, '?like=cartName:al')).rows.map((r) => r.cartName)).toEqual(['Alpha']);
  });

  it('never shows another customer their carts, even with UserId', async () => {
    const { rows } = await listOf(alice, `?UserId=${erin.id}`);
    expect(rows).toEqual([]);
    expect(
      (await listOf(alice)).rows.every((r) => (r as unknown as { UserId: string }).UserId === alice.id),
    ).toBe(true);
  });

  it("shows staff every customer's carts, or one customer's with UserId", async () => {
    for (const staff of [admin, superadmin]) {
      const all = await listOf(staff, '?limit=100');
      const owners = new Set(all.rows.map((r) => (r as unknown as { UserId: string }).UserId));
      expect(owners.has(erin.id) && owners.has(alice.id)).toBe(true);
      expect(Number(all.total)).toBe(all.rows.length);
      const created = all.rows.map((r) => (r as unknown as { createdAt: string }).createdAt);
      expect(created).toEqual([...created].sort().reverse());
      const hers = await listOf(staff, `?UserId=${erin.id}&order=createdAt:ASC`);
      expect(hers.rows.map((r) => r.id)).toEqual(ids);
      expect((await listOf(staff, `?UserId=${newUserId()}`)).total).toBe('0');
    }
  });

  it('refuses anonymous callers and malformed queries', async () => {
    expectRefused(await as(undefined, '/cart'), 401, 'Authentication required');
    expectRefused(await as(erin, '/cart?colour=red'), 400, "Unknown query parameter 'colour'");
    expect((await as(erin, '/cart?limit=101')).status).toBe(400);
    expect((await as(erin, '/cart?order=qty:ASC')).body.message).toMatch(/^order must be/);
    expectRefused(await as(admin, '/cart?UserId=nope'), 400, 'Invalid UserId');
    expect((await as(erin, '/cart?isActive=maybe')).status).toBe(400);
  });
});

describe('GET /cart/{id} and /cart/{id}/products', () => {
  it('answers the own cart as a one-row list, optionally only if isActive matches', async () => {
    const active = (await listOf(alice, '?isActive=true')).rows[0]?.id as string;
    for (const path of [`/cart/${active}`, `/cart/${active}/products`]) {
      const res = await as(alice, path);
      expect(res.status).toBe(200);
      expect(res.body.result).toHaveLength(1);
      expect(res.body.result[0]).toMatchObject({ id: active, isActive: true, cartTotal: 0 });
      expect((await as(alice, `${path}?isActive=true`)).body.result).toHaveLength(1);
      expect((await as(alice, `${path}?isActive=false`)).body.result).toEqual([]);
    }
  });

  it("answers 404 for another customer's cart, any cart to staff", async () => {
    const aliceCart = (await listOf(alice)).rows[0]?.id as string;
    expectRefused(await as(bob, `/cart/${aliceCart}`), 404, 'Cart not found');
    expectRefused(await as(bob, `/cart/${aliceCart}/products`), 404, 'Cart not found');
    expectRefused(await as(alice, `/cart/${missing}`), 404, 'Cart not found');
    for (const staff of [admin, superadmin]) {
      const res = await as(staff, `/cart/${aliceCart}`);
      expect(res.status).toBe(200);
      expect(res.body.result[0]).toMatchObject({ id: aliceCart, UserId: alice.id });
      expectRefused(await as(staff, `/cart/${missing}`), 404, 'Cart not found');
    }
  });

  it('refuses anonymous callers and malformed ids', async () => {
    expectRefused(await as(undefined, `/cart/${missing}`), 401, 'Authentication required');
    expectRefused(await as(alice, '/cart/12345'), 400, 'Invalid id');
    expectRefused(await as(alice, `/cart/${missing}?x=1`), 400, "Unknown query parameter 'x'");
  });
});

describe('PUT /cart/{id}', () => {
  it('renames a cart', async () => {
    const cart = await createCart(alice);
    const res = await as(alice, `/cart/${cart.id}`, { method: 'PUT', json: { cartName: '  Autumn  ' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: cart.id, cartName: 'Autumn', isActive: false });
    expect((await as(alice, `/cart/${cart.id}`)).body.result[0].cartName).toBe('Autumn');
  });

  it('sets a cart active and the previous one inactive, announcing the old one first', async () => {
    const frank = userFor(service, 'customer');
    const first = (await listOf(frank)).rows[0]?.id as string;
    const second = (await createCart(frank)).id;
    const res = await as(frank, `/cart/${second}`, { method: 'PUT', json: { isActive: true } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: second, isActive: true });
    const { rows } = await listOf(frank);
    expect(rows.filter((r) => r.isActive).map((r) => r.id)).toEqual([second]);
    // Setting it active again changes nothing.
    expect((await as(frank, `/cart/${second}`, { method: 'PUT', json: { isActive: true } })).status).toBe(
      200,
    );

    const mine = (e: EventEnvelope) => e.aggregateId === frank.id;
    const events = (await cartEvents(service, (all) => all.filter(mine).length >= 4)).filter(mine);
    expect(events.map((e) => e.type)).toEqual(['CartChanged', 'CartChanged', 'CartChanged', 'CartChanged']);
    const carts = events.map(
      (e) => e.payload as { cart: { id: string; isActive: boolean }; revision: number },
    );
    expect(carts.map((p) => [p.cart.id, p.cart.isActive, p.revision])).toEqual([
      [first, true, 1],
      [second, false, 2],
      [first, false, 3],
      [second, true, 3],
    ]);
  });

  it('refuses to deactivate the active cart, to check a cart out, and bad names', async () => {
    const active = (await listOf(alice, '?isActive=true')).rows[0]?.id as string;
    expectRefused(
      await as(alice, `/cart/${active}`, { method: 'PUT', json: { isActive: false } }),
      409,
      'A customer always has one active cart: set another cart active instead',
    );
    expectRefused(
      await as(alice, `/cart/${active}`, { method: 'PUT', json: { didCheckOut: true } }),
      409,
      'Only submitting an order checks a cart out',
    );
    expectRefused(
      await as(alice, `/cart/${active}`, { method: 'PUT', json: { cartName: '' } }),
      400,
      'Cart name must not be empty',
    );
    expectRefused(
      await as(alice, `/cart/${active}`, { method: 'PUT', json: { isActive: 'yes' } }),
      400,
      'isActive must be true or false',
    );
    expectRefused(
      await as(alice, `/cart/${active}`, { method: 'PUT', json: { UserId: bob.id } }),
      400,
      "Unknown field 'UserId'",
    );
  });

  it("refuses other customers' carts (404), staff (403), anonymous callers (401), malformed ids (400)", async () => {
    const cart = await createCart(alice);
    expectRefused(
      await as(bob, `/cart/${cart.id}`, { method: 'PUT', json: { isActive: true } }),
      404,
      'Cart not found',
    );
    expectRefused(
      await as(bob, `/cart/${cart.id}`, { method: 'PUT', json: { cartName: 'Mine now' } }),
      404,
      'Cart not found',
    );
    for (const staff of [admin, superadmin]) {
      expectRefused(
        await as(staff, `/cart/${cart.id}`, { method: 'PUT', json: { cartName: 'x' } }),
        403,
        'Only customers have carts',
      );
    }
    expectRefused(
      await as(undefined, `/cart/${cart.id}`, { method: 'PUT', json: {} }),
      401,
      'Authentication required',
    );
    expectRefused(await as(alice, '/cart/not-an-id', { method: 'PUT', json: {} }), 400, 'Invalid id');
    expect((await as(alice, `/cart/${cart.id}`)).body.result[0]).toMatchObject({
      cartName: 'My Cart',
      isActive: false,
    });
  });
});

describe('DELETE /cart/{id}', () => {
  it('deletes an inactive cart', async () => {
    const cart = await createCart(alice, { cartName: 'Doomed' });
    const res = await as(alice, `/cart/${cart.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { id: cart.id } });
    expectRefused(await as(alice, `/cart/${cart.id}`), 404, 'Cart not found');
    expect((await listOf(alice)).rows.map((r) => r.id)).not.toContain(cart.id);
    expectRefused(await as(alice, `/cart/${cart.id}`, { method: 'DELETE' }), 404, 'Cart not found');
    const deleted = await cartEvents(service, (all) => all.some((e) => e.type === 'CartDeleted'));
    expect(deleted.find((e) => e.type === 'CartDeleted')?.payload).toMatchObject({
      userId: alice.id,
      cartId: cart.id,
    });
  });

  it('refuses the active cart', async () => {
    const active = (await listOf(alice, '?isActive=true')).rows[0]?.id as string;
    expectRefused(
      await as(alice, `/cart/${active}`, { method: 'DELETE' }),
      409,
      'The active cart cannot be deleted',
    );
  });

  it("refuses other customers' carts (404), staff (403), anonymous callers (401), malformed ids (400)", async () => {
    const cart = await createCart(alice);
    expectRefused(await as(bob, `/cart/${cart.id}`, { method: 'DELETE' }), 404, 'Cart not found');
    for (const staff of [admin, superadmin]) {
      expectRefused(
        await as(staff, `/cart/${cart.id}`, { method: 'DELETE' }),
        403,
        'Only customers have carts',
      );
    }
    expectRefused(
      await as(undefined, `/cart/${cart.id}`, { method: 'DELETE' }),
      401,
      'Authentication required',
    );
    expectRefused(await as(alice, '/cart/xyz', { method: 'DELETE' }), 400, 'Invalid id');
    expect((await as(alice, `/cart/${cart.id}`)).status).toBe(200);
  });
});
