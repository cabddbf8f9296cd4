/**
 * Issue 28: an ended session stays ended across restarts. Which sessions ended lives in each process's
 * memory, read from the user topic; a process just started (or one that cannot read Kafka) has not read
 * it yet, and must answer 503 to a session token rather than accept it. Here a customer signs out, the
 * gateway and the services are replaced by new instances (same databases, same Kafka), and the old token
 * is replayed at once on routes of every service: 401 each time, never 200. A gateway that cannot reach
 * Kafka answers 503 to it (not ready), while signing in and its liveness keep working.
 */
import { cartService, loadCartConfig } from '@decor/cart';
import { SESSION_MESSAGES } from '@decor/contracts';
import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { JWT_SECRET } from '@decor/gateway/testing';
import { type RunningService, type ServiceApp, startService } from '@decor/kit';
import { call, eventually, serviceEnv } from '@decor/kit/testing';
import { loadOrderConfig, orderService } from '@decor/order';
import { loadUserConfig, userService } from '@decor/user';

jest.setTimeout(90_000);

const noExit = { exit: () => {} };
/** The customer's routes replayed, one per service behind the gateway. */
const ROUTES = ['/auth/jwt', '/cart', '/estimate'];
/** The gateway's own (a live-order stream ticket): no service behind it checks the session again. */
const TICKET = '/orders/events/ticket';
const ticket = (api: string, token: string) => call(api, TICKET, { method: 'POST', token });
/** Opens the live stream with a ticket; its status only (an accepted stream is closed at once). */
async function streamWithTicket(api: string, streamTicket: string): Promise<number> {
  const res = await fetch(`${api}/orders/events?ticket=${encodeURIComponent(streamTicket)}`, {
    signal: AbortSignal.timeout(10_000),
  });
  await res.body?.cancel().catch(() => {});
  return res.status;
}
let env: Record<'user' | 'cart' | 'order', Record<string, string>>;
let services: RunningService[] = [];
const gateways: ServiceApp[] = [];

async function startServices(): Promise<Record<'user' | 'cart' | 'order', string>> {
  const [user, cart, order] = await Promise.all([
    startService(userService(loadUserConfig(env.user)), noExit),
    startService(cartService(loadCartConfig(env.cart)), noExit),
    startService(orderService(loadOrderConfig(env.order)), noExit),
  ]);
  services = [user, cart, order];
  return { user: user.url, cart: cart.url, order: order.url };
}

async function startGateway(
  urls: Record<'user' | 'cart' | 'order', string>,
  kafkaBrokers = env.user.KAFKA_BROKERS as string,
): Promise<{ api: string; internal: string }> {
  const gateway = await buildGateway(
    loadGatewayConfig({
      NODE_ENV: 'test',
      DECOR_ALLOW_DEV_SECRETS: '1',
      JWT_SECRET,
      USER_SERVICE_URL: urls.user,
      CART_SERVICE_URL: urls.cart,
      ORDER_SERVICE_URL: urls.order,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      GATEWAY_CACHE_TTL_MS: '0',
      KAFKA_BROKERS: kafkaBrokers,
      KAFKA_TOPIC_PREFIX: env.user.KAFKA_TOPIC_PREFIX as string,
      REDIS_URL: env.user.REDIS_URL as string,
      REDIS_PREFIX: env.user.REDIS_PREFIX as string,
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  gateways.push(gateway);
  return {
    api: `${await gateway.listen({ port: 0, host: '127.0.0.1' })}/api`,
    internal: gateway.internalUrl,
  };
}

const stopAll = async () => {
  for (const g of gateways.splice(0)) await g.close();
  await Promise.all(services.splice(0).map((s) => s.shutdown('test: restart')));
};

beforeAll(async () => {
  env = {
    user: await serviceEnv('user'),
    cart: await serviceEnv('cart'),
    order: await serviceEnv('order'),
  };
});

afterAll(stopAll);

it('a signed-out session is refused by new instances of the gateway and every service, at once', async () => {
  let urls = await startServices();
  let gw = await startGateway(urls);
  const signIn = await call(gw.api, '/auth/user', {
    method: 'POST',
    json: { email: 'customer@decor.example', password: 'demo1234' },
  });
  expect(signIn.status).toBe(200);
  const token = signIn.headers.get('token') as string;
  for (const path of ROUTES)
    expect([path, (await call(gw.api, path, { token })).status]).toEqual([path, 200]);
  expect((await ticket(gw.api, token)).status).toBe(200);
  // A second, unused ticket of the same session: it is signed with the installation's key, so a new
  // gateway instance would take it (60 s) — unless it knows the session ended.
  const spareTicket = ((await ticket(gw.api, token)).body as { result: { ticket: string } }).result.ticket;
  expect((await call(gw.api, '/auth/logout', { method: 'POST', token })).status).toBe(200);
  // Heard through the user topic (a fraction of a second): then the sign-out is on it.
  await eventually(
    async () => ((await call(gw.api, '/auth/jwt', { token })).status === 401 ? true : undefined),
    10_000,
    'the sign-out heard by the gateway',
  );

  // Everything replaced: nothing new remembers the sign-out but the user topic.
  await stopAll();
  urls = await startServices();
  gw = await startGateway(urls);
  // Replayed at once (the gateway has only just started reading), through it and straight at each service.
  const [streamStatus, ...answers] = await Promise.all([
    streamWithTicket(gw.api, spareTicket),
    ticket(gw.api, token),
    ...ROUTES.map((path) => call(gw.api, path, { token })),
    call(urls.user, '/auth/jwt', { token }),
    call(urls.cart, '/cart', { token }),
    call(urls.order, '/estimate', { token }),
  ]);
  // The gateway may still be reading (a loaded machine can take over its 2 s wait): 503 then, never
  // 2xx; the services opened their ports once they had read it, so theirs are 401 already.
  const gatewayAnswers = answers.slice(0, 1 + ROUTES.length);
  const serviceAnswers = answers.slice(1 + ROUTES.length);
  for (const a of gatewayAnswers)
    expect([
      [401, SESSION_MESSAGES.ended],
      [503, SESSION_MESSAGES.unchecked],
    ]).toContainEqual([a.status, a.body?.message]);
  expect(serviceAnswers.map((a) => [a.status, a.body?.message])).toEqual(
    serviceAnswers.map(() => [401, SESSION_MESSAGES.ended]),
  );
  expect(answers.every((a) => a.status === 503 || a.headers.get('expiredtoken') === 'true')).toBe(true);
  expect([401, 503]).toContain(streamStatus);
  // And once it has read the topic, still refused; its /readyz says ready.
  expect(await gateways.at(-1)?.sessionRevocations.whenCaughtUp(5_000)).toBe(true);
  for (const path of ROUTES) expect((await call(gw.api, path, { token })).status).toBe(401);
  expect((await ticket(gw.api, token)).status).toBe(401);
  expect(await streamWithTicket(gw.api, spareTicket)).toBe(401);
  expect((await fetch(`${gw.internal}/readyz`)).status).toBe(200);

  // A gateway that cannot read Kafka never accepts a token: 503, not ready, alive; signing in works.
  const blind = await startGateway(urls, '127.0.0.1:9');
  const fresh = await call(blind.api, '/auth/user', {
    method: 'POST',
    json: { email: 'customer@decor.example', password: 'demo1234' },
  });
  expect(fresh.status).toBe(200);
  for (const t of [token, fresh.headers.get('token') as string]) {
    for (const answer of [await call(blind.api, '/cart', { token: t }), await ticket(blind.api, t)])
      expect([answer.status, answer.body?.message]).toEqual([503, SESSION_MESSAGES.unchecked]);
  }
  // A forged token is not held for the sessions: its 401 comes at once.
  const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;
  expect((await call(blind.api, '/cart', { token: forged })).status).toBe(401);
  const ready = await fetch(`${blind.internal}/readyz`);
  expect(ready.status).toBe(503);
  expect(((await ready.json()) as { message: string }).message).toMatch(/sessions/);
  expect((await fetch(`${blind.api.replace(/\/api$/, '')}/healthz`)).status).toBe(200);
});
