/**
 * The product in a test process, composed as `npm start` composes it from
 * `infra/cli/src/runnables.ts`: each service started from its service definition (the notification
 * service's e-mail worker beside it), on this test file's databases, topics and queues, and the
 * gateway in front, finding each service through the env variable runnables.ts names for it
 * (`urlEnv`). The test stacks (`startStack`, `startStorefrontStack`, the browser journeys' QuickBooks
 * stack) pick the services they need.
 */
import { accountingSyncService, loadAccountingSyncConfig } from '@decor/accounting-sync';
import { cartService, loadCartConfig } from '@decor/cart';
import { catalogueService, loadCatalogueConfig } from '@decor/catalogue';
import { SERVICES } from '@decor/cli/runnables';
import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { gatewayTestEnv } from '@decor/gateway/testing';
import { type RunningService, type ServiceApp, startService, startWorkers } from '@decor/kit';
import { loadNotificationConfig, notificationService, notificationWorkers } from '@decor/notification';
import { loadOrderConfig, orderService } from '@decor/order';
import { loadUserConfig, userService } from '@decor/user';

/** A process's env, as `serviceEnv` gives it. */
type Env = Record<string, string | undefined>;

const noExit = { exit: () => {} };

/** How each service of runnables.ts starts in this process, from its env (`serviceEnv`). */
const IN_PROCESS = {
  user: (env: Env) => startService(userService(loadUserConfig(env)), noExit),
  catalogue: (env: Env) => startService(catalogueService(loadCatalogueConfig(env)), noExit),
  cart: (env: Env) => startService(cartService(loadCartConfig(env)), noExit),
  order: (env: Env) => startService(orderService(loadOrderConfig(env)), noExit),
  'accounting-sync': (env: Env) => startService(accountingSyncService(loadAccountingSyncConfig(env)), noExit),
  notification: (env: Env) => startService(notificationService(loadNotificationConfig(env)), noExit),
};

type ServiceName = keyof typeof IN_PROCESS;

/** Starts one service of the product in this process. */
export function startInProcess<K extends ServiceName>(name: K, env: Env): ReturnType<(typeof IN_PROCESS)[K]> {
  return IN_PROCESS[name](env) as ReturnType<(typeof IN_PROCESS)[K]>;
}

/** The worker process of a service that has one (runnables.ts: `worker`), in this process. */
export function startWorkerInProcess(name: 'notification', env: Env): Promise<RunningService> {
  const runnable = SERVICES.find((s) => s.name === name);
  if (!runnable?.worker) throw new Error(`${name} has no worker in runnables.ts`);
  return startWorkers(notificationWorkers(loadNotificationConfig(env)), noExit);
}

/** The gateway's env naming each given service's URL, by the variable runnables.ts names for it. */
function upstreamEnv(urls: Partial<Record<ServiceName, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const service of SERVICES) {
    const url = urls[service.name as ServiceName];
    if (url !== undefined && service.urlEnv) env[service.urlEnv] = url;
  }
  return env;
}

/**
 * The gateway in front of `upstreams`, on the Kafka and Redis of `serviceEnv` (this file's topics
 * and keys), listening on a free port and ready as /readyz means it (it has read which sessions ended).
 */
export async function startGateway(
  upstreams: Partial<Record<ServiceName, string>>,
  serviceEnv: Record<string, string>,
  extra: Record<string, string> = {},
  /** A port chosen beforehand (a URL the services must know first, e.g. QuickBooks' redirect); else any free one. */
  port = 0,
): Promise<{ gateway: ServiceApp; gatewayUrl: string }> {
  const gateway = await buildGateway(
    loadGatewayConfig({
      ...gatewayTestEnv(serviceEnv),
      ...upstreamEnv(upstreams),
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      ...extra,
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  try {
    const gatewayUrl = await gateway.listen({ port, host: '127.0.0.1' });
    // Ready as /readyz means it: it has read which sessions ended (else a token answers 503).
    await gateway.sessionRevocations.whenCaughtUp(10_000);
    return { gateway, gatewayUrl };
  } catch (err) {
    await gateway.close().catch(() => {});
    throw err;
  }
}
