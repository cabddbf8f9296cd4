/**
 * Before the load: the customers (stored as the user service stores users, with their UserCreated
 * event, in the demo company — there is no sign-up call), QuickBooks connected as staff connect it
 * (Connect, the emulator's consent, the callback), and a priced product in stock to order.
 */
import { type ApiCall, callApi, waiter } from '@decor/cli/public-api';
import { consentRedirect } from '@decor/qbo-emulator';
import { companyModel, hashPassword, newUserWithEvent, userModel } from '@decor/user';
import mongoose from 'mongoose';
import type { NpmStartStack } from '../npm-start';

export const STAFF = { email: 'staff@decor.example', password: 'demo1234' };
const PASSWORD = 'chaos-customer';

/** A call of the public API, as the storefront makes it; none waits past 15 s (a frozen service). */
export const api = (stack: NpmStartStack, path: string, call: Omit<ApiCall, 'signal'> = {}) =>
  callApi(stack.gatewayUrl, path, { ...call, signal: AbortSignal.timeout(15_000) });

export const until = waiter('chaos', 500);

export async function signIn(stack: NpmStartStack, email: string, password: string): Promise<string> {
  return until(`the sign-in of ${email}`, 60_000, async () => {
    const res = await api(stack, '/auth/user', { method: 'POST', json: { email, password } });
    return res.status === 200 ? (res.headers.get('token') ?? undefined) : undefined;
  });
}

export interface Prepared {
  customers: Array<{ email: string; password: string }>;
  productId: string;
}

/**
 * Customers stored as the user service stores them (with their UserCreated event), in the demo
 * company; `chaos-<tag><n>@decor.example`, password PASSWORD.
 */
export async function addCustomers(
  stack: NpmStartStack,
  count: number,
  tag = '',
): Promise<Array<{ email: string; password: string }>> {
  const conn = await mongoose.createConnection(stack.mongoUrl, { dbName: 'user' }).asPromise();
  const emails = Array.from({ length: count }, (_, i) => `chaos-${tag}${i + 1}@decor.example`);
  try {
    const companies = companyModel(conn);
    const company = await until('the demo company', 60_000, async () => {
      const found = await companies.findOne({});
      return found ? { id: found._id.toString(), name: found.name } : undefined;
    });
    const users = userModel(conn);
    const passwordHash = await hashPassword(PASSWORD);
    await users.insertMany(
      emails.map((email, i) =>
        newUserWithEvent(
          users,
          {
            firstName: 'Chaos',
            lastName: `Customer ${tag}${i + 1}`,
            email,
            permissions: 'customer',
            passwordHash,
            CompanyId: company.id,
            ownCompany: company.name,
          },
          `chaos-${tag}${i + 1}`,
          { welcome: false },
        ),
      ),
    );
  } finally {
    await conn.close();
  }
  return emails.map((email) => ({ email, password: PASSWORD }));
}

export async function prepare(
  stack: NpmStartStack,
  customers: number,
  log: (line: string) => void,
): Promise<Prepared> {
  const emails = (await addCustomers(stack, customers)).map((c) => c.email);
  log(`chaos: ${customers} customers added; waiting for their first carts …`);
  for (const email of emails) {
    const token = await signIn(stack, email, PASSWORD);
    await until(
      `${email}'s first cart`,
      90_000,
      async () => (await api(stack, '/auth/jwt', { token })).body?.result?.cart?.id,
    );
  }

  const staff = await signIn(stack, STAFF.email, STAFF.password);
  const start = await api(stack, '/qbo/connect', { token: staff });
  if (start.status !== 200)
    throw new Error(`chaos: /api/qbo/connect answered ${start.status} ${JSON.stringify(start.body)}`);
  const back = await consentRedirect(start.body.result.url, stack.realmId);
  const connected = await api(stack, `/auth/accessToken${back.search}`, { token: staff });
  if (!connected.body?.result?.connected)
    throw new Error(
      `chaos: QuickBooks did not connect: ${connected.status} ${JSON.stringify(connected.body)}`,
    );
  log(`chaos: QuickBooks connected (realm ${stack.realmId})`);

  const productId = await until('a priced product in stock', 60_000, async () => {
    const res = await api(stack, '/product?gt=quantity:1&limit=100', { token: staff });
    const priced = ((res.body?.result ?? []) as Array<{ id: string; price: number }>).filter(
      (p) => p.price > 0,
    );
    return priced[0]?.id;
  });
  return { customers: emails.map((email) => ({ email, password: PASSWORD })), productId };
}
