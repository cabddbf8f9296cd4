/**
 * Cart lines over real HTTP: set a quantity, remove, bulk remove, bulk save, copy a cart; prices
 * and stock always from the catalogue's events (ProductUpserted / ProductDeleted on the catalogue topic).
 */
import { ProductDeleted } from '@decor/contracts';
import {
  type Answer,
  activeCart,
  type CartServiceUnderTest,
  call,
  cartEvents,
  caughtUp,
  event,
  productEvent,
  publish,
  seedProducts,
  startCart,
  stopAndClean,
  type TestProduct,
  type TestUser,
  userFor,
} from './support';

let service: CartServiceUnderTest;
let base: string;
let admin: TestUser;
let superadmin: TestUser;

const CHAIR: TestProduct = {
  sku: 'SEA-CH-004',
  name: 'White Folding Chair',
  priceCents: 325,
  quantity: 10,
  qboId: '42',
};
const ARCH: TestProduct = { sku: 'ARC-001', name: 'Wedding Arch', priceCents: 12_000, quantity: 2 };
const SOLD_OUT: TestProduct = { sku: 'LIN-9', name: 'Ivory Runner', priceCents: 800, quantity: 0 };
const LAMP: TestProduct = { sku: 'LMP.1', name: 'Lantern', priceCents: 1_550, quantity: 30 };

beforeAll(async () => {
  service = await startCart();
  base = service.url;
  admin = userFor(service, 'admin');
  superadmin = userFor(service, 'superadmin');
  await seedProducts(service, [CHAIR, ARCH, SOLD_OUT, LAMP]);
});

afterAll(() => stopAndClean(service));

const as = (user: TestUser | undefined, path: string, init: { method?: string; json?: unknown } = {}) =>
  call(base, path, { ...init, token: user?.token });

function expectRefused(res: Answer, status: number, message: string) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { message } });
}

interface LineView {
  id: string;
  CartId: string;
  CartProductId: string;
  qty: number;
  price: number;
  total: number;
  quantity: number;
}
interface View {
  id: string;
  cartTotal: number;
  CartProducts: LineView[];
}

const setQty = (user: TestUser | undefined, cartId: string, sku: string, json: unknown) =>
  as(user, `/cart/${cartId}/cartProduct/${encodeURIComponent(sku)}`, { method: 'POST', json });

async function customerWithCarts(n = 1) {
  const user = userFor(service, 'customer');
  const ids = [(await activeCart(base, user)).id];
  for (let i = 1; i < n; i += 1) {
    const res = await as(user, '/cart', { method: 'POST', json: { cartName: `Cart ${i + 1}` } });
    ids.push(res.body.result.id);
  }
  return { user, ids };
}

async function withLines(user: TestUser, cartId: string, lines: [TestProduct, number][]): Promise<View> {
  let view: View | undefined;
  for (const [p, qty] of lines) {
    const res = await setQty(user, cartId, p.sku, { qty, price: p.priceCents / 100 });
    expect(res.status).toBe(200);
    view = res.body.result;
  }
  return view as View;
}

describe('POST /cart/{id}/cartProduct/{productId}', () => {
  it("adds a line at the catalogue's price whatever price the client sends, and shows stock", async () => {
    const { user, ids } = await customerWithCarts();
    const res = await setQty(user, ids[0] as string, CHAIR.sku, { qty: 3, price: 0.01 });
    expect(res.status).toBe(200);
    const view = res.body.result as View;
    expect(view).toMatchObject({ id: ids[0], isActive: true, cartTotal: 9.75 });
    expect(view.CartProducts).toEqual([
      {
        id: CHAIR.sku,
        CartId: ids[0],
        CartProductId: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: CHAIR.name,
        description: `${CHAIR.name} for events`,
        qty: 3,
        price: 3.25,
        total: 9.75,
        quantity: 10,
        qboId: '42',
      },
    ]);
    const mine = (e: { aggregateId: string }) => e.aggregateId === user.id;
    const events = (await cartEvents(service, (all) => all.filter(mine).length >= 2)).filter(mine);
    expect(events.at(-1)?.payload).toMatchObject({
      cart: {
        id: ids[0],
        totalCents: 975,
        lines: [{ productId: CHAIR.sku, qty: 3, priceCents: 325, qboId: '42' }],
      },
      revision: 2,
    });
  });

  it('SETS the quantity: saving again keeps one line with the new quantity', async () => {
    const { user, ids } = await customerWithCarts();
    const first = await withLines(user, ids[0] as string, [[CHAIR, 2]]);
    const again = await withLines(user, ids[0] as string, [
      [CHAIR, 5],
      [LAMP, 1],
    ]);
    expect(
      again.CartProducts.map((l) => [l.id, l.qty, l.CartProductId === first.CartProducts[0]?.CartProductId]),
    ).toEqual([
      [CHAIR.sku, 5, true],
      [LAMP.sku, 1, false],
    ]);
    expect(again.cartTotal).toBe(31.75);
    expect((await as(user, `/cart/${ids[0]}`)).body.result[0].cartTotal).toBe(31.75);
  });

  it('checks the quantity against the current stock', async () => {
    const { user, ids } = await customerWithCarts();
    const cart = ids[0] as string;
    expectRefused(await setQty(user, cart, CHAIR.sku, { qty: 0 }), 400, 'Quantity must be at least 1');
    expectRefused(await setQty(user, cart, CHAIR.sku, { qty: -2 }), 400, 'Quantity must be at least 1');
    expectRefused(await setQty(user, cart, CHAIR.sku, { qty: 1.5 }), 400, 'Quantity must be a whole number');
    expectRefused(
      await setQty(user, cart, CHAIR.sku, { qty: 11 }),
      400,
      'Only 10 of this product are available',
    );
    expectRefused(await setQty(user, cart, SOLD_OUT.sku, { qty: 1 }), 400, 'This product is out of stock');
    expectRefused(await setQty(user, cart, CHAIR.sku, { qty: '2' }), 400, 'qty must be a number');
    expectRefused(await setQty(user, cart, CHAIR.sku, {}), 400, 'qty is required');
    expectRefused(
      await setQty(user, cart, CHAIR.sku, { qty: 1, discount: 5 }),
      400,
      "Unknown field 'discount'",
    );
    expect((await setQty(user, cart, CHAIR.sku, { qty: 10 })).status).toBe(200);
    expect((await as(user, `/cart/${cart}`)).body.result[0].CartProducts.map((l: LineView) => l.qty)).toEqual(
      [10],
    );
  });

  it('answers 404 for unknown products and carts, 400 for malformed ids', async () => {
    const { user, ids } = await customerWithCarts();
    expectRefused(await setQty(user, ids[0] as string, 'NOPE-1', { qty: 1 }), 404, 'Product not found');
    expectRefused(await setQty(user, 'f'.repeat(24), CHAIR.sku, { qty: 1 }), 404, 'Cart not found');
    expectRefused(await setQty(user, ids[0] as string, 'bad sku!', { qty: 1 }), 400, 'Invalid productId');
    expectRefused(await setQty(user, 'nope', CHAIR.sku, { qty: 1 }), 400, 'Invalid id');
  });

  it("refuses another customer's cart (404), staff (403) and anonymous callers (401)", async () => {
    const { ids } = await customerWithCarts();
    const other = userFor(service, 'customer');
    expectRefused(await setQty(other, ids[0] as string, CHAIR.sku, { qty: 1 }), 404, 'Cart not found');
    for (const staff of [admin, superadmin]) {
      expectRefused(
        await setQty(staff, ids[0] as string, CHAIR.sku, { qty: 1 }),
        403,
        'Only customers have carts',
      );
    }
    expectRefused(
      await setQty(undefined, ids[0] as string, CHAIR.sku, { qty: 1 }),
      401,
      'Authentication required',
    );
    for (const staff of [admin, superadmin]) {
      expect((await as(staff, `/cart/${ids[0]}`)).body.result[0].CartProducts).toEqual([]);
    }
  });
});

describe('catalogue changes', () => {
  it('reach the cart: the next save takes the new price and the new stock limit; deleted products are gone', async () => {
    const VASE: TestProduct = { sku: 'VAS-7', name: 'Glass Vase', priceCents: 400, quantity: 20 };
    await seedProducts(service, [VASE]);
    const { user, ids } = await customerWithCarts();
    const cart = ids[0] as string;
    expect((await withLines(user, cart, [[VASE, 8]])).CartProducts[0]).toMatchObject({
      price: 4,
      quantity: 20,
    });

    await publish(service, [productEvent({ ...VASE, priceCents: 650, quantity: 6 })]);
    await caughtUp(service, 'products', 'catalogue');
    // The stored line keeps its price until saved again; the view shows the stock of now.
    expect((await as(user, `/cart/${cart}`)).body.result[0].CartProducts[0]).toMatchObject({
      qty: 8,
      price: 4,
      quantity: 6,
    });
    expectRefused(
      await setQty(user, cart, VASE.sku, { qty: 7 }),
      400,
      'Only 6 of this product are available',
    );
    const saved = await setQty(user, cart, VASE.sku, { qty: 6, price: 4 });
    expect(saved.body.result.CartProducts[0]).toMatchObject({ qty: 6, price: 6.5, total: 39, quantity: 6 });

    await publish(service, [event(ProductDeleted, VASE.sku, { sku: VASE.sku })]);
    await caughtUp(service, 'products', 'catalogue');
    expectRefused(await setQty(user, cart, VASE.sku, { qty: 1 }), 404, 'Product not found');
    expect((await as(user, `/cart/${cart}`)).body.result[0].CartProducts[0]).toMatchObject({
      qty: 6,
      quantity: 0,
    });
  });
});

describe('DELETE /cartProduct/{CartProductId}', () => {
  it('removes the line and answers its cart', async () => {
    const { user, ids } = await customerWithCarts();
    const view = await withLines(user, ids[0] as string, [
      [CHAIR, 2],
      [LAMP, 3],
    ]);
    const chairLine = view.CartProducts[0]?.CartProductId as string;
    const res = await as(user, `/cartProduct/${chairLine}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: ids[0], cartTotal: 46.5 });
    expect(res.body.result.CartProducts.map((l: LineView) => l.id)).toEqual([LAMP.sku]);
    expectRefused(
      await as(user, `/cartProduct/${chairLine}`, { method: 'DELETE' }),
      404,
      'Cart line not found',
    );
  });

  it("refuses another customer's line (404), staff (403), anonymous callers (401), malformed ids (400)", async () => {
    const { user, ids } = await customerWithCarts();
    const line = (await withLines(user, ids[0] as string, [[CHAIR, 1]])).CartProducts[0]
      ?.CartProductId as string;
    expectRefused(
      await as(userFor(service, 'customer'), `/cartProduct/${line}`, { method: 'DELETE' }),
      404,
      'Cart line not found',
    );
    for (const staff of [admin, superadmin]) {
      expectRefused(
        await as(staff, `/cartProduct/${line}`, { method: 'DELETE' }),
        403,
        'Only customers have carts',
      );
    }
    expectRefused(
      await as(undefined, `/cartProduct/${line}`, { method: 'DELETE' }),
      401,
      'Authentication required',
    );
    expectRefused(await as(user, '/cartProduct/123', { method: 'DELETE' }), 400, 'Invalid id');
    expect((await as(user, `/cart/${ids[0]}`)).body.result[0].CartProducts).toHaveLength(1);
  });
});

describe('DELETE /cartProduct/deleteBulk?ids=', () => {
  it('removes lines of several carts at once and answers each touched cart', async () => {
    const { user, ids } = await customerWithCarts(3);
    const a = await withLines(user, ids[0] as string, [
      [CHAIR, 1],
      [LAMP, 1],
    ]);
    const b = await withLines(user, ids[1] as string, [[ARCH, 1]]);
    await withLines(user, ids[2] as string, [[LAMP, 2]]);
    const gone = [a.CartProducts[0]?.CartProductId, b.CartProducts[0]?.CartProductId];
    const res = await as(user, `/cartProduct/deleteBulk?ids=${gone.join(',')}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body.result.map((v: View) => [v.id, v.CartProducts.map((l) => l.id)])).toEqual([
      [ids[0], [LAMP.sku]],
      [ids[1], []],
    ]);
    expect((await as(user, `/cart/${ids[2]}`)).body.result[0].CartProducts).toHaveLength(1);
  });

  it('is all or nothing: an unknown or foreign id refuses the whole call', async () => {
    const { user, ids } = await customerWithCarts();
    const mine = (await withLines(user, ids[0] as string, [[CHAIR, 1]])).CartProducts[0]
      ?.CartProductId as string;
    const other = await customerWithCarts();
    const theirs = (await withLines(other.user, other.ids[0] as string, [[CHAIR, 1]])).CartProducts[0]
      ?.CartProductId as string;
    expectRefused(
      await as(user, `/cartProduct/deleteBulk?ids=${mine},${theirs}`, { method: 'DELETE' }),
      404,
      'Cart line not found',
    );
    expectRefused(
      await as(user, `/cartProduct/deleteBulk?ids=${mine}&ids=${'a'.repeat(24)}`, { method: 'DELETE' }),
      404,
      'Cart line not found',
    );
    expect((await as(user, `/cart/${ids[0]}`)).body.result[0].CartProducts).toHaveLength(1);
    expect((await as(other.user, `/cart/${other.ids[0]}`)).body.result[0].CartProducts).toHaveLength(1);
    // Repeated parameters work too.
    const both = await as(user, `/cartProduct/deleteBulk?ids=${mine}&ids=${mine}`, { method: 'DELETE' });
    expect(both.body.result[0].CartProducts).toEqual([]);
  });

  it('refuses malformed ids, staff (403) and anonymous callers (401)', async () => {
    const { user } = await customerWithCarts();
    expectRefused(
      await as(user, '/cartProduct/deleteBulk?ids=abc', { method: 'DELETE' }),
      400,
      'Invalid ids',
    );
    expectRefused(
      await as(user, '/cartProduct/deleteBulk?ids=,', { method: 'DELETE' }),
      400,
      'ids must name at least one cart line',
    );
    expectRefused(await as(user, '/cartProduct/deleteBulk', { method: 'DELETE' }), 400, 'ids is required');
    const many = Array.from({ length: 201 }, (_, i) => i.toString(16).padStart(24, '0')).join(',');
    expectRefused(
      await as(user, `/cartProduct/deleteBulk?ids=${many}`, { method: 'DELETE' }),
      400,
      'ids must name at most 200 cart lines',
    );
    const id = 'b'.repeat(24);
    for (const staff of [admin, superadmin]) {
      expectRefused(
        await as(staff, `/cartProduct/deleteBulk?ids=${id}`, { method: 'DELETE' }),
        403,
        'Only customers have carts',
      );
    }
    expectRefused(
      await as(undefined, `/cartProduct/deleteBulk?ids=${id}`, { method: 'DELETE' }),
      401,
      'Authentication required',
    );
  });
});

describe('POST /saveBulk/cartProduct[/{userId}]', () => {
  it('sets several lines in several carts at catalogue prices and answers each touched cart', async () => {
    const { user, ids } = await customerWithCarts(2);
    const res = await as(user, '/saveBulk/cartProduct', {
      method: 'POST',
      json: [
        { ProductId: CHAIR.sku, CartId: ids[0], qty: 4, price: 0 },
        { ProductId: ARCH.sku, CartId: ids[1], qty: 2, price: 1 },
        { ProductId: LAMP.sku, CartId: ids[0], qty: 1 },
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.result.map((v: View) => [
        v.id,
        v.cartTotal,
        v.CartProducts.map((l) => [l.id, l.qty, l.price]),
      ]),
    ).toEqual([
      [
        ids[0],
        28.5,
        [
          [CHAIR.sku, 4, 3.25],
          [LAMP.sku, 1, 15.5],
        ],
      ],
      [ids[1], 240, [[ARCH.sku, 2, 120]]],
    ]);
    const own = await as(user, `/saveBulk/cartProduct/${user.id}`, {
      method: 'POST',
      json: [{ ProductId: CHAIR.sku, CartId: ids[0], qty: 1 }],
    });
    expect(own.body.result[0].CartProducts.map((l: LineView) => l.qty)).toEqual([1, 1]);
  });

  it('is all or nothing and names the refused item', async () => {
    const { user, ids } = await customerWithCarts();
    const res = await as(user, '/saveBulk/cartProduct', {
      method: 'POST',
      json: [
        { ProductId: CHAIR.sku, CartId: ids[0], qty: 1 },
        { ProductId: ARCH.sku, CartId: ids[0], qty: 3 },
      ],
    });
    expectRefused(res, 400, `Item 2 (${ARCH.sku}): Only 2 of this product are available`);
    const unknown = await as(user, '/saveBulk/cartProduct', {
      method: 'POST',
      json: [{ ProductId: 'NOPE', CartId: ids[0], qty: 1 }],
    });
    expectRefused(unknown, 404, 'Item 1 (NOPE): Product not found');
    expect((await as(user, `/cart/${ids[0]}`)).body.result[0].CartProducts).toEqual([]);
  });

  it('refuses bad bodies, foreign carts and users (404), staff (403), anonymous callers (401)', async () => {
    const { user, ids } = await customerWithCarts();
    const other = await customerWithCarts();
    const item = { ProductId: CHAIR.sku, CartId: ids[0], qty: 1 };
    const post = (who: TestUser | undefined, json: unknown, path = '/saveBulk/cartProduct') =>
      as(who, path, { method: 'POST', json });
    expectRefused(await post(user, []), 400, 'Body must have at least 1 item');
    expectRefused(await post(user, item), 400, 'Body must be a list');
    expectRefused(await post(user, [{ ...item, CartId: 'x' }]), 400, 'Invalid [0].CartId');
    expectRefused(await post(user, [{ ...item, colour: 'red' }]), 400, "Unknown field '[0].colour'");
    expectRefused(await post(user, [{ ...item, CartId: other.ids[0] }]), 404, 'Cart not found');
    expectRefused(await post(user, [item], `/saveBulk/cartProduct/${other.user.id}`), 404, 'Cart not found');
    expectRefused(await post(user, [item], '/saveBulk/cartProduct/zzz'), 400, 'Invalid userId');
    for (const staff of [admin, superadmin]) {
      expectRefused(await post(staff, [item]), 403, 'Only customers have carts');
      expectRefused(
        await post(staff, [item], `/saveBulk/cartProduct/${user.id}`),
        403,
        'Only customers have carts',
      );
    }
    expectRefused(await post(undefined, [item]), 401, 'Authentication required');
    expect((await as(user, `/cart/${ids[0]}`)).body.result[0].CartProducts).toEqual([]);
  });
});

describe('PUT /cart/{id}/copy/{targetCartId}', () => {
  it("adds the source's lines into the target, capped at stock, at current prices", async () => {
    const { user, ids } = await customerWithCarts(2);
    const [source, target] = ids as [string, string];
    await withLines(user, source, [
      [CHAIR, 7],
      [ARCH, 2],
      [LAMP, 1],
    ]);
    await withLines(user, target, [[CHAIR, 6]]);
    const res = await as(user, `/cart/${source}/copy/${target}`, { method: 'PUT' });
    expect(res.status).toBe(200);
    expect(res.body.result.id).toBe(target);
    expect(res.body.result.CartProducts.map((l: LineView) => [l.id, l.qty])).toEqual([
      [CHAIR.sku, 10],
      [ARCH.sku, 2],
      [LAMP.sku, 1],
    ]);
    expect(res.body.result.cartTotal).toBe(32.5 + 240 + 15.5);
    // The source is unchanged.
    expect(
      (await as(user, `/cart/${source}`)).body.result[0].CartProducts.map((l: LineView) => l.qty),
    ).toEqual([7, 2, 1]);
  });

  it('refuses copying into itself, foreign carts (404), staff (403), anonymous callers (401), malformed ids', async () => {
    const { user, ids } = await customerWithCarts(2);
    const other = await customerWithCarts();
    const [a, b] = ids as [string, string];
    expectRefused(
      await as(user, `/cart/${a}/copy/${a}`, { method: 'PUT' }),
      409,
      'A cart cannot be copied into itself',
    );
    expectRefused(
      await as(user, `/cart/${a}/copy/${other.ids[0]}`, { method: 'PUT' }),
      404,
      'Cart not found',
    );
    expectRefused(
      await as(user, `/cart/${other.ids[0]}/copy/${a}`, { method: 'PUT' }),
      404,
      'Cart not found',
    );
    for (const staff of [admin, superadmin]) {
      expectRefused(
        await as(staff, `/cart/${a}/copy/${b}`, { method: 'PUT' }),
        403,
        'Only customers have carts',
      );
    }
    expectRefused(
      await as(undefined, `/cart/${a}/copy/${b}`, { method: 'PUT' }),
      401,
      'Authentication required',
    );
    expectRefused(await as(user, `/cart/${a}/copy/oops`, { method: 'PUT' }), 400, 'Invalid targetCartId');
  });
});
