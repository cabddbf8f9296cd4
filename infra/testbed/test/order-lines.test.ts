/**
 * Issue 14 §1, the line edits of an order's edit mode, through the gateway on real servers: the
 * demo catalogue's products reach the order service by the catalogue's events only; staff add
 * products (Labor included) at catalogue prices whatever the client sends, change and remove lines;
 * customers change quantities and remove lines while they may edit; every refusal answers its
 * status and message and changes nothing.
 */

import { daysFromNow, signedIn } from '@decor/gateway/testing';
import { call, eventually } from '@decor/kit/testing';
import { type StorefrontStack, startStorefrontStack } from '../src/storefront-stack';

jest.setTimeout(120_000);

interface Product {
  id: string;
  name: string;
  price: number;
  quantity: number;
}
interface Line {
  id: string;
  qty: number;
  price: number;
  name: string;
}

let stack: StorefrontStack;
let staffToken: string;
let products: Product[];
let labor: Product;
let customers = 0;

beforeAll(async () => {
  stack = await startStorefrontStack({ notification: false });
  staffToken = stack.gateway.signToken({
    id: 'staff0123456789abcdef0aa',
    permissions: 'admin',
    email: 's@x.y',
  });
  const all = await eventually(
    async () => {
      const answer = await call(stack.api, '/product?gt=quantity:0&limit=100', { token: staffToken });
      const list = (answer.body?.result ?? []) as Product[];
      return list.length > 10 ? list : undefined;
    },
    20_000,
    'the demo catalogue',
  );
  labor = all.find((p) => p.id === 'LABOR') as Product;
  // Priced products with stock for a few (over the stock is then quantity + 1), Labor apart.
  products = all.filter((p) => p.id !== 'LABOR' && p.price > 0 && p.quantity >= 3).slice(0, 3);
  expect(labor).toBeDefined();
  expect(products).toHaveLength(3);
});
afterAll(() => stack?.stop());

/** A customer's estimate of one line of the first product, submitted through the gateway. */
async function estimateOf(name: string, eventDate = daysFromNow(30)) {
  customers += 1;
  const me = await stack.createCustomer(`${name}${customers}`);
  const client = await signedIn(stack.api, me.email, me.password);
  const cart = await client.activeCart();
  const first = products[0] as Product;
  await eventually(
    async () => {
      const saved = await client.call(`/cart/${cart.id}/cartProduct/${encodeURIComponent(first.id)}`, {
        method: 'POST',
        json: { qty: 2, price: first.price },
      });
      return saved.status === 200 ? saved : undefined;
    },
    20_000,
    'the line in the cart',
  );
  const submitted = await client.call('/estimate', {
    method: 'POST',
    json: { CartId: cart.id, status: 'Pending', groupName: `${name} gala`, eventDate, location: 'The Mill' },
  });
  expect(submitted.status).toBe(201);
  const id = submitted.body.result.id as string;
  const put = (json: unknown) => client.call(`/estimate/${id}`, { method: 'PUT', json });
  const staffPut = (json: unknown) =>
    call(stack.api, `/estimate/${id}`, { method: 'PUT', json, token: staffToken });
  const read = async () => (await client.call(`/estimate/${id}`)).body.result;
  return { client, id, put, staffPut, read };
}

const linesOf = (order: { CartProducts: Line[] }) => order.CartProducts.map((l) => [l.id, l.qty, l.price]);

it('staff quick-add Labor and a product at catalogue prices, change and remove lines; totals follow', async () => {
  const order = await estimateOf('Quinn');
  const [first, second] = products as [Product, Product];
  const added = await order.staffPut({
    CartProducts: [
      { id: first.id, qty: 2 },
      { id: labor.id, qty: 1, price: 999 },
      { id: second.id, qty: 1, price: 0.01, name: 'Tampered' },
    ],
  });
  expect(added.status).toBe(200);
  expect(linesOf(added.body.result)).toEqual([
    [first.id, 2, first.price],
    [labor.id, 1, labor.price],
    [second.id, 1, second.price],
  ]);
  expect(added.body.result.CartProducts[2].name).toBe(second.name);
  expect(added.body.result.hasBeenModified).toBe(true);

  const edited = await order.staffPut({
    CartProducts: [
      { id: labor.id, qty: 1 },
      { id: second.id, qty: 3 },
    ],
  });
  expect(edited.status).toBe(200);
  const result = edited.body.result;
  expect(linesOf(result)).toEqual([
    [labor.id, 1, labor.price],
    [second.id, 3, second.price],
  ]);
  const subtotalCents = Math.round(labor.price * 100) + 3 * Math.round(second.price * 100);
  expect(Math.round(result.subtotal * 100)).toBe(subtotalCents);
  expect(Math.round(result.salesTax * 100)).toBe(
    Math.round((subtotalCents + result.truckingFee * 100) * 0.081),
  );
  expect(result.total).toBeCloseTo(result.subtotal + result.truckingFee + result.salesTax, 2);
  // The customer reads the same order, modified (their 'Pending Approval').
  expect(await order.read()).toMatchObject({ hasBeenModified: true, subtotal: result.subtotal });
});

it('a customer changes a quantity and removes a line of their own order while they may edit', async () => {
  const order = await estimateOf('Riley');
  const [first, second] = products as [Product, Product];
  expect(
    (
      await order.staffPut({
        CartProducts: [
          { id: first.id, qty: 2 },
          { id: second.id, qty: 1 },
        ],
      })
    ).status,
  ).toBe(200);
  const mine = await order.put({ CartProducts: [{ id: second.id, qty: 2 }] });
  expect(mine.status).toBe(200);
  expect(linesOf(mine.body.result)).toEqual([[second.id, 2, second.price]]);
  expect(mine.headers.get('can-be-modified')).toBe('true');
});

describe('refusals: the status, the message, and the order unchanged', () => {
  it.each([
    ['no line left', 'staff', () => [], 400, 'An order must keep at least one line'],
    [
      'a product twice',
      'staff',
      (p: Product) => [
        { id: p.id, qty: 1 },
        { id: p.id, qty: 2 },
      ],
      400,
      'is on the order more than once',
    ],
    [
      'an unknown product',
      'staff',
      () => [{ id: 'NO-SUCH-SKU', qty: 1 }],
      400,
      'Product NO-SUCH-SKU not found',
    ],
    [
      'more than the stock',
      'staff',
      (p: Product) => [{ id: p.id, qty: p.quantity + 1 }],
      400,
      'are available',
    ],
    ['quantity 0', 'staff', (p: Product) => [{ id: p.id, qty: 0 }], 400, 'qty'],
    [
      'a customer adding a product',
      'customer',
      (p: Product, q: Product) => [
        { id: p.id, qty: 2 },
        { id: q.id, qty: 1 },
      ],
      403,
      'Only staff can add products to an order',
    ],
    [
      'a customer over the stock',
      'customer',
      (p: Product) => [{ id: p.id, qty: p.quantity + 1 }],
      400,
      'are available',
    ],
  ] as const)('%s', async (_what, who, lines, status, message) => {
    const order = await estimateOf('Sky');
    const before = await order.read();
    const body = {
      CartProducts: (lines as (p: Product, q: Product) => unknown)(
        products[0] as Product,
        products[1] as Product,
      ),
    };
    const res = who === 'staff' ? await order.staffPut(body) : await order.put(body);
    expect(res.status).toBe(status);
    expect(res.body.message).toContain(message);
    expect(await order.read()).toEqual(before);
  });

  it('a customer within 3 days of the event: 409 with the spec sentence; staff still may', async () => {
    const order = await estimateOf('Tatum', daysFromNow(2));
    const first = products[0] as Product;
    const res = await order.put({ CartProducts: [{ id: first.id, qty: 1 }] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'This event will occur in less than 3 days. If you need to change your order please contact us.',
    );
    expect((await order.staffPut({ CartProducts: [{ id: first.id, qty: 1 }] })).status).toBe(200);
  });

  it('a cancelled order: 409 This order is Voided, for staff too', async () => {
    const order = await estimateOf('Umber');
    expect((await order.put({ status: 'Voided' })).status).toBe(200);
    const res = await order.staffPut({ CartProducts: [{ id: labor.id, qty: 1 }] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This order is Voided');
  });
});
