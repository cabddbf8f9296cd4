/**
 * Live order status on the real path: a customer's checkout through the gateway (order service →
 * outbox → Kafka EstimateSubmitted) shows on that customer's open stream and on staff's, within 2 s
 * of the checkout's answer, and never on another customer's stream.
 */

import { daysFromNow, openSse, orderEvents, type SseStream, signedIn } from '@decor/gateway/testing';
import { eventually } from '@decor/kit/testing';
import { type StorefrontStack, startStorefrontStack } from '../src/storefront-stack';

jest.setTimeout(90_000);

let stack: StorefrontStack;
const streams: SseStream[] = [];

beforeAll(async () => {
  stack = await startStorefrontStack({ notification: false });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await stack?.stop();
});

async function open(query: string, token?: string): Promise<SseStream> {
  const s = await openSse(`${stack.api}/orders/events${query}`, token ? { token } : {});
  streams.push(s);
  expect(s.status).toBe(200);
  await s.until((m) => m.some((e) => e.event === 'ready'), 20_000, 'ready');
  return s;
}

it("a checkout shows on its customer's stream and on staff's, not on another customer's", async () => {
  const blake = await stack.createCustomer('Blake');
  const client = await signedIn(stack.api, blake.email, blake.password);
  const casey = await stack.createCustomer('Casey');
  const other = await signedIn(stack.api, casey.email, casey.password);
  const staffToken = stack.gateway.signToken({
    id: 'staff0123456789abcdef012',
    permissions: 'admin',
    email: 's@x.y',
  });

  // The browser way for Blake: a ticket, then an EventSource URL; fetch-style for the others.
  const ticket = await client.call('/orders/events/ticket', { method: 'POST' });
  expect(ticket.status).toBe(200);
  const mine = await open(`?ticket=${encodeURIComponent(ticket.body.result.ticket)}`);
  const theirs = await open('', other.token);
  const staff = await open('', staffToken);

  const cart = await client.activeCart();
  const product = await eventually(
    async () => {
      const answer = await client.call('/product?gt=quantity:1&limit=100');
      return ((answer.body?.result ?? []) as { id: string; price: number }[]).find((p) => p.price > 0);
    },
    20_000,
    'a demo product',
  );
  await eventually(
    async () => {
      const saved = await client.call(`/cart/${cart.id}/cartProduct/${encodeURIComponent(product.id)}`, {
        method: 'POST',
        json: { qty: 1, price: product.price },
      });
      return saved.status === 200 ? saved : undefined;
    },
    20_000,
    'the line in the cart',
  );
  const submitted = await client.call('/estimate', {
    method: 'POST',
    json: {
      CartId: cart.id,
      status: 'Pending',
      groupName: 'Blake live status',
      eventDate: daysFromNow(30),
      location: 'The Old Mill, Portland',
    },
  });
  expect(submitted.status).toBe(201);
  const answeredAt = Date.now();
  const estimateId = submitted.body.result.id as string;
  const isIt = (m: { event: string; data: string }) => m.event === 'order' && m.data.includes(estimateId);

  await mine.until((m) => m.some(isIt), 2_000, 'the estimate on the customer stream within 2 s');
  await staff.until((m) => m.some(isIt), 2_000, 'the estimate on the staff stream within 2 s');
  expect(Date.now() - answeredAt).toBeLessThan(2_000);
  expect(orderEvents(mine.messages)).toContainEqual({
    type: 'EstimateSubmitted',
    orderType: 'estimate',
    id: estimateId,
    status: 'Pending',
    revision: 0,
  });
  expect(theirs.messages.some(isIt)).toBe(false);
  expect(orderEvents(theirs.messages)).toEqual([]);
});
