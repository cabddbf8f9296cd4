/**
 * Issue 15, availability by date, through the gateway on real servers: a product's units are booked
 * per day over each order's window (event day ± the shop's 1-day buffers); a submission that does
 * not fit answers 409 with every short line and books nothing; racing customers book exactly what
 * the shop owns; Voided releases; staff see the calendar, who holds a day, and conflicts, and only
 * staff may overbook.
 */
import { formatLongDate } from '@decor/contracts';
import { daysFromNow, signedIn } from '@decor/gateway/testing';
import { call, eventually } from '@decor/kit/testing';
import { type StorefrontStack, startStorefrontStack } from '../src/storefront-stack';

jest.setTimeout(180_000);

let stack: StorefrontStack;
let staff: string;
let customers = 0;
const EVENT = daysFromNow(60);
const SKU = `AV-${Date.now().toString(36).toUpperCase()}`;
const NAME = 'Gold Chiavari Chairs';

const staffCall = (path: string, opts: Parameters<typeof call>[2] = {}) =>
  call(stack.api, path, { ...opts, token: staff });

beforeAll(async () => {
  stack = await startStorefrontStack({ notification: false });
  staff = stack.gateway.signToken({ id: 'staff0123456789abcdef0ab', permissions: 'admin', email: 's@x.y' });
  const categories = (await eventually(
    async () => {
      const answer = await call(stack.api, '/categories');
      return answer.body?.result?.subcategories?.length ? answer.body.result : undefined;
    },
    20_000,
    'the demo categories',
  )) as {
    categories: { Id: string; Name: string }[];
    subcategories: { Name: string; ParentRef: { value: string } }[];
  };
  const sub = categories.subcategories[0] as { Name: string; ParentRef: { value: string } };
  const parent = categories.categories.find((c) => c.Id === sub.ParentRef.value) as { Name: string };
  const created = await staffCall('/product', {
    method: 'POST',
    json: {
      id: SKU,
      name: NAME,
      description: 'Stackable',
      category: parent.Name,
      subcategory: sub.Name,
      price: 9,
      quantity: 5,
    },
  });
  expect(created.status).toBe(201);
});
afterAll(() => stack?.stop());

/** A new customer with `qty` of the product in their cart, ready to submit. */
async function customerWith(qty: number) {
  customers += 1;
  const me = await stack.createCustomer(`Avery${customers}`);
  const client = await signedIn(stack.api, me.email, me.password);
  const cart = await client.activeCart();
  await eventually(
    async () => {
      const saved = await client.call(`/cart/${cart.id}/cartProduct/${SKU}`, {
        method: 'POST',
        json: { qty, price: 9 },
      });
      return saved.status === 200 ? saved : undefined;
    },
    20_000,
    'the line in the cart',
  );
  const submit = (eventDate: string) =>
    client.call('/estimate', {
      method: 'POST',
      json: { CartId: cart.id, status: 'Pending', groupName: 'Gala', eventDate, location: 'The Mill' },
    });
  return { client, submit };
}

const availability = (day: string, token?: string) =>
  call(stack.api, `/availability?from=${day}&id=${SKU}`, token ? { token } : {});

it('racing customers book exactly the units owned; the rest are refused with the short line', async () => {
  const racers = await Promise.all(Array.from({ length: 9 }, () => customerWith(1)));
  const answers = await Promise.all(racers.map((r) => r.submit(EVENT)));
  expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
  const refused = answers.filter((a) => a.status !== 201);
  expect(refused.map((a) => a.status)).toEqual([409, 409, 409, 409]);
  expect(refused[0]?.body).toEqual({
    message: `Only 0 ${NAME} are available on ${formatLongDate(EVENT)}`,
    shortLines: [{ productId: SKU, name: NAME, requested: 1, available: 0, day: EVENT }],
  });
  // Visitors get a hint, signed-in users the number.
  expect((await availability(EVENT)).body.result).toEqual([{ id: SKU, hint: 'Not available' }]);
  const mine = await availability(EVENT, racers[0]?.client.token);
  expect(mine.body.result).toEqual([{ id: SKU, hint: 'Not available', available: 0, day: EVENT }]);

  // Staff: five units on the event day and its buffer days, the five orders on the day.
  const month = EVENT.slice(0, 7);
  const calendar = await staffCall(`/availability/calendar?month=${month}`);
  expect(calendar.status).toBe(200);
  const row = calendar.body.result.products.find((p: { id: string }) => p.id === SKU);
  expect(row.owned).toBe(5);
  expect(row.booked[Number(EVENT.slice(8)) - 1]).toBe(5);
  const holds = await staffCall(`/availability/holds?id=${SKU}&day=${EVENT}`);
  expect(holds.body.result).toHaveLength(5);
  expect(holds.body.result[0].DocNumber).toMatch(/^\d+$/);
  // Customers cannot read the staff views.
  expect(
    (await call(stack.api, `/availability/calendar?month=${month}`, { token: racers[0]?.client.token }))
      .status,
  ).toBe(403);

  // Voiding one order frees its unit at once.
  const [first] = (await staffCall('/estimate?limit=100')).body.result.filter(
    (e: { CartProducts: { id: string }[]; status: string }) => e.CartProducts.some((l) => l.id === SKU),
  );
  expect(
    (await staffCall(`/estimate/${first.id}`, { method: 'PUT', json: { status: 'Voided' } })).status,
  ).toBe(200);
  expect((await availability(EVENT, racers[0]?.client.token)).body.result[0].available).toBe(1);
});

it('buffers: the day after the window still collides, two days after is free', async () => {
  const day = daysFromNow(90);
  const first = await customerWith(5);
  expect((await first.submit(day)).status).toBe(201);
  const next = daysFromNow(91);
  const second = await customerWith(1);
  // 91's window (90..92) shares day 90 with the first order's window (89..91).
  const refused = await second.submit(next);
  expect(refused.status).toBe(409);
  expect(refused.body.shortLines[0]).toMatchObject({ available: 0 });
  const third = await customerWith(1);
  expect((await third.submit(daysFromNow(93))).status).toBe(201);
});

it('a customer edit beyond what is free is refused; only staff may overbook, recorded on the order and shown as a conflict', async () => {
  const day = daysFromNow(120);
  const a = await customerWith(3);
  const b = await customerWith(2);
  const created = await a.submit(day);
  expect(created.status).toBe(201);
  expect((await b.submit(day)).status).toBe(201);
  const id = created.body.result.id as string;
  const tooMany = await a.client.call(`/estimate/${id}`, {
    method: 'PUT',
    json: { CartProducts: [{ id: SKU, qty: 4 }] },
  });
  expect(tooMany.status).toBe(409);
  expect(tooMany.body.message).toBe(`Only 3 ${NAME} are available on ${formatLongDate(day)}`);
  const sneaky = await a.client.call(`/estimate/${id}`, {
    method: 'PUT',
    json: { CartProducts: [{ id: SKU, qty: 4 }], overbook: true },
  });
  expect(sneaky.status).toBe(403);
  expect(
    (await staffCall(`/availability/holds?id=${SKU}&day=${day}`)).body.result
      .map((h: { qty: number }) => h.qty)
      .sort(),
  ).toEqual([2, 3]);

  const subRental = await staffCall(`/estimate/${id}`, {
    method: 'PUT',
    json: { CartProducts: [{ id: SKU, qty: 4 }], overbook: true },
  });
  expect(subRental.status).toBe(200);
  // The confirmation is recorded on the order: who, when, and the line that was short then.
  const recorded = {
    by: 's@x.y',
    at: expect.any(String),
    lines: [{ productId: SKU, name: NAME, requested: 4, available: 3, day }],
  };
  expect(subRental.body.result.subRental).toEqual(recorded);
  expect((await staffCall(`/estimate/${id}`)).body.result.subRental).toEqual(recorded);
  const asCustomer = await a.client.call(`/estimate/${id}`);
  expect(asCustomer.status).toBe(200);
  expect(asCustomer.body.result).not.toHaveProperty('subRental');
  // A staff edit that fits records nothing new: the last confirmation stays as it was.
  const at = subRental.body.result.subRental.at;
  expect(
    (await staffCall(`/estimate/${id}`, { method: 'PUT', json: { room: 'Garden room' } })).body.result
      .subRental.at,
  ).toBe(at);
  const conflicts = await staffCall('/availability/conflicts');
  const mine = conflicts.body.result.find(
    (c: { id: string; first: string; last: string }) => c.id === SKU && c.first <= day && day <= c.last,
  );
  expect(mine).toMatchObject({ owned: 5, peak: 6, name: NAME });
  expect(mine.orders).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ orderId: id, qty: 4, overbooked: true, subRental: recorded }),
    ]),
  );
  const holds = await staffCall(`/availability/holds?id=${SKU}&day=${day}`);
  expect(holds.body.result).toEqual(
    expect.arrayContaining([expect.objectContaining({ orderId: id, subRental: recorded })]),
  );
});

it('answers 400 with a message for a bad date check', async () => {
  const bad = await call(stack.api, `/availability?from=2027-02-30&id=${SKU}`);
  expect(bad.status).toBe(400);
  expect(bad.body.message).toBe('from must be a date (YYYY-MM-DD)');
  const backwards = await call(stack.api, `/availability?from=2027-03-02&to=2027-03-01&id=${SKU}`);
  expect(backwards.body.message).toBe('to must not be before from');
});
