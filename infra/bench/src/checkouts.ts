/**
 * Customers checking out at the same moment: N new customers each fill their active cart with two
 * products, then all send `POST /api/estimate` at once through the gateway. Printed: how many
 * succeeded, the latency of those calls, and — once the events have done their work — the counts
 * of estimates, checked-out carts and e-mails (each should equal N).
 */

// The benchmark adds its customers as the user service stores users (with their UserCreated event);
// there is no sign-up call in the product.
import { callApi, waiter } from '@decor/cli/public-api';
import { hashPassword, newUserWithEvent, userModel } from '@decor/user';
import mongoose from 'mongoose';
import { percentile } from './stats';

export interface CheckoutFigures {
  customers: number;
  succeeded: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  estimates: number;
  checkedOutCarts: number;
  customerEmails: number;
  staffEmails: number;
  /** Seconds from the last answer until every count reached N (or the wait gave up). */
  settleSeconds: number;
}

export interface CheckoutStack {
  gatewayUrl: string;
  runId: string;
  staffEmail: string;
  mailApiUrl: string;
  userDb: { url: string; db: string };
  startEmailWorker(): Promise<void>;
}

const PASSWORD = 'bench-checkout';
const STAFF = { email: 'staff@decor.example', password: 'demo1234' };

export const until = waiter('benchmark', 200);

async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await callApi(base, '/auth/user', { method: 'POST', json: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.headers.get('token') as string;
}

export async function createCustomers(
  stack: Pick<CheckoutStack, 'runId' | 'userDb'>,
  n: number,
  tag = 'bench',
): Promise<string[]> {
  const connection = await mongoose
    .createConnection(stack.userDb.url, { dbName: stack.userDb.db })
    .asPromise();
  try {
    const users = userModel(connection);
    const passwordHash = await hashPassword(PASSWORD);
    const emails = Array.from({ length: n }, (_, i) => `${tag}-${stack.runId}-${i}@decor.example`);
    await users.insertMany(
      emails.map((email, i) =>
        newUserWithEvent(
          users,
          { firstName: `Bench${i}`, lastName: 'Customer', email, permissions: 'customer', passwordHash },
          `bench-${i}`,
          { welcome: false }, // only the checkout e-mails are counted
        ),
      ),
    );
    return emails; // the user service's relay publishes their UserCreated on its next scan (≤ 1 s)
  } finally {
    await connection.close();
  }
}

/** Signs in, waits for the customer's first active cart and puts the products in it (`qty` of each). */
export async function fillCart(
  base: string,
  email: string,
  productIds: string[],
  qty = 2,
): Promise<{ token: string; cartId: string }> {
  const token = await signIn(base, email, PASSWORD);
  const cartId = await until(`${email}'s first cart`, 60_000, async () => {
    return (await callApi(base, '/auth/jwt', { token })).body?.result?.cart?.id as string | undefined;
  });
  for (const id of productIds) {
    await until(`adding ${id} for ${email}`, 30_000, async () => {
      const res = await callApi(base, `/cart/${cartId}/cartProduct/${encodeURIComponent(id)}`, {
        method: 'POST',
        token,
        json: { qty },
      });
      return res.status === 200 ? true : undefined;
    });
  }
  return { token, cartId };
}

export async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

async function mailCount(mailApiUrl: string, to: string): Promise<number> {
  const res = await fetch(`${mailApiUrl}/api/v1/search?limit=100000&query=${encodeURIComponent(`to:${to}`)}`);
  return ((await res.json()) as { messages: unknown[] }).messages.length;
}

export async function measureCheckouts(
  stack: CheckoutStack,
  customers: number,
  log: (line: string) => void,
): Promise<CheckoutFigures> {
  const base = stack.gatewayUrl;
  await stack.startEmailWorker();
  log(`checkouts: creating ${customers} customers and filling their carts …`);
  const emails = await createCustomers(stack, customers);
  const staffToken = await signIn(base, STAFF.email, STAFF.password);
  // Carts do not reserve stock: every customer may take 2 of a product that has at least 2; orders
  // book it by date, so each customer's event is on days of its own (3 apart: the 1-day buffers).
  const products = await until('two priced products in stock', 30_000, async () => {
    const res = await callApi(base, '/product?gt=quantity:1&limit=100', { token: staffToken });
    const priced = (res.body?.result ?? []).filter((p: { price: number }) => p.price > 0) as { id: string }[];
    return priced.length >= 2 ? priced.slice(0, 2).map((p) => p.id) : undefined;
  });
  const carts = await inBatches(emails, 10, (email) => fillCart(base, email, products));

  log(`checkouts: ${customers} customers submit at once …`);
  const timings = await Promise.all(
    carts.map(async ({ token, cartId }, i) => {
      const eventDate = new Date(Date.now() + (30 + 3 * i) * 86_400_000).toISOString().slice(0, 10);
      const started = performance.now();
      const res = await callApi(base, '/estimate', {
        method: 'POST',
        token,
        json: {
          CartId: cartId,
          status: 'Pending',
          groupName: `Bench event ${i}`,
          eventDate,
          location: 'Bench Hall',
        },
      });
      return { ok: res.status === 201, ms: performance.now() - started, status: res.status, body: res.body };
    }),
  );
  const failed = timings.filter((t) => !t.ok);
  if (failed.length > 0)
    log(`checkouts: ${failed.length} failed, first: ${failed[0]?.status} ${JSON.stringify(failed[0]?.body)}`);
  const answeredAt = Date.now();

  const counts = async () => ({
    estimates: Number(
      (await callApi(base, '/estimate?limit=1', { token: staffToken })).headers.get('total_count'),
    ),
    checkedOutCarts: Number(
      (await callApi(base, '/cart?didCheckOut=true&limit=1', { token: staffToken })).headers.get(
        'total_count',
      ),
    ),
    customerEmails: await mailCount(stack.mailApiUrl, `bench-${stack.runId}-`),
    staffEmails: await mailCount(stack.mailApiUrl, stack.staffEmail),
  });
  let last = await counts();
  const want = timings.length - failed.length;
  await until('estimates, checked-out carts and e-mails', 120_000, async () => {
    last = await counts();
    return Object.values(last).every((n) => n >= want) ? true : undefined;
  }).catch(() => log('checkouts: counts did not all reach the number of checkouts within 120 s'));
  const ms = timings.map((t) => t.ms);
  return {
    customers,
    succeeded: want,
    p50Ms: percentile(ms, 50),
    p99Ms: percentile(ms, 99),
    maxMs: Math.max(...ms),
    ...last,
    settleSeconds: (Date.now() - answeredAt) / 1000,
  };
}
