/**
 * `npm start`'s demo orders (issue 15): on a fresh installation the demo customer requests a few
 * orders over the coming weeks through the public API, as the checkout does — one of them takes
 * every Mirrored Bar Front on its day — so the storefront's date check, the checkout's refusal and
 * the staff calendar show something real at once. Once any estimate exists nothing is added.
 * DEMO_ORDERS=false turns it off.
 */
import { type ApiAnswer, type ApiCall, callApi, waiter } from './public-api';

interface DemoOrder {
  inDays: number;
  groupName: string;
  lines: { sku: string; qty: number }[];
  willCall?: { pickupInDays: number; returnInDays: number };
}

/** The demo catalogue's SKUs (services/catalogue/src/demo-data.ts). */
export const DEMO_ORDERS: DemoOrder[] = [
  { inDays: 14, groupName: 'Harper & Lee Wedding', lines: [{ sku: 'BAR-FR-001', qty: 4 }] },
  {
    inDays: 21,
    groupName: 'Summit Tech Gala',
    lines: [
      { sku: 'BAR-FR-002', qty: 3 },
      { sku: 'BAR-FR-003', qty: 1 },
    ],
    willCall: { pickupInDays: 20, returnInDays: 22 },
  },
  { inDays: 35, groupName: 'Rivera Quinceañera', lines: [{ sku: 'BAR-FR-001', qty: 2 }] },
];

type Api = (path: string, call?: Omit<ApiCall, 'signal'>) => Promise<ApiAnswer>;

/** Every call ends within 10 s, and at once on a Ctrl-C. */
function apiOf(gatewayUrl: string, interrupted: AbortSignal): Api {
  return (path, call = {}) =>
    callApi(gatewayUrl, path, {
      ...call,
      signal: AbortSignal.any([AbortSignal.timeout(10_000), interrupted]),
    });
}

const dayIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function signIn(api: Api, email: string, password: string): Promise<string> {
  const res = await api('/auth/user', { method: 'POST', json: { email, password } });
  if (res.status !== 200) throw new Error(`demo orders: sign-in of ${email} answered ${res.status}`);
  return res.headers.get('token') as string;
}

/**
 * Books the demo orders unless the shop already has estimates; answers how many it submitted.
 * `interrupted` (a Ctrl-C during start-up) ends it at the next request.
 */
export async function seedDemoOrders(
  gatewayUrl: string,
  env: Record<string, string | undefined> = process.env,
  interrupted: AbortSignal = new AbortController().signal,
): Promise<number> {
  if (env.DEMO_ORDERS === 'false') return 0;
  const api = apiOf(gatewayUrl, interrupted);
  const until = waiter('demo orders', 250, interrupted);
  const password = env.DEMO_PASSWORD || 'demo1234';
  const staff = await signIn(api, env.DEMO_ADMIN_EMAIL || 'staff@decor.example', password);
  const existing = await api('/estimate?limit=1', { token: staff });
  if (Number(existing.headers.get('total_count') ?? 0) > 0) return 0;
  const customer = await signIn(api, env.DEMO_CUSTOMER_EMAIL || 'customer@decor.example', password);
  const usedCarts = new Set<string>();
  let submitted = 0;
  for (const order of DEMO_ORDERS) {
    // After each submission the cart service makes the customer a new active cart.
    const cartId = await until('the customer’s active cart', 30_000, async () => {
      const id = ((await api('/auth/jwt', { token: customer })).body?.result as { cart?: { id: string } })
        ?.cart?.id;
      return id && !usedCarts.has(id) ? id : undefined;
    });
    usedCarts.add(cartId);
    await until('the demo products in the cart', 30_000, async () => {
      const res = await api('/saveBulk/cartProduct', {
        method: 'POST',
        token: customer,
        json: order.lines.map((l) => ({ CartId: cartId, ProductId: l.sku, qty: l.qty, price: 1 })),
      });
      return res.status === 200 ? res : undefined;
    });
    const res = await api('/estimate', {
      method: 'POST',
      token: customer,
      json: {
        CartId: cartId,
        status: 'Pending',
        groupName: order.groupName,
        eventDate: dayIn(order.inDays),
        location: 'The Old Mill',
        ...(order.willCall
          ? {
              willCallPickupDate: dayIn(order.willCall.pickupInDays),
              willCallReturnDate: dayIn(order.willCall.returnInDays),
            }
          : {}),
      },
    });
    if (res.status !== 201)
      throw new Error(`demo orders: '${order.groupName}' answered ${res.status} ${res.body?.message ?? ''}`);
    submitted += 1;
  }
  return submitted;
}
