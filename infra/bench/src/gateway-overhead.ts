/**
 * Gateway overhead: GET /auth/jwt with a signed-in customer's token, called on the user service
 * itself and through the gateway (/api/auth/jwt), interleaved in the same run, same load. Beside
 * it, the gateway's own cost: its `/healthz` and the signed-in product list (answered from its
 * cache of catalogue reads) against a bare Fastify route in a Node process of its own.
 */
import path from 'node:path';
import { REPO_ROOT } from '@decor/cli';
import { freePort, startProcess } from '@decor/stack';
import autocannon from 'autocannon';
import { PRODUCT_LIST_PATH } from './catalogue-reads';
import { cpuMeter } from './stats';

export const DEMO_CUSTOMER = { email: 'customer@decor.example', password: 'demo1234' };

export interface LoadOptions {
  connections: number;
  /** Seconds measured per target. */
  seconds: number;
  /**
   * Seconds of unmeasured load per target first: throughput still climbs for ~20 s of load
   * (JIT in the services and in the Mongo JVM).
   */
  warmupSeconds: number;
  /** Role → pid of every process whose CPU use is worth showing. */
  roles: Record<string, number>;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Non-2xx answers, connection errors and timeouts: any of them makes the figures suspect. */
  failures: number;
  /** Cores each process used while measured. */
  cores: Record<string, number>;
}

export interface GatewayOverhead {
  route: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  direct: LoadFigures;
  viaGateway: LoadFigures;
  /** viaGateway / direct requests per second. */
  ratio: number;
  own: OwnCost;
}

/** What the gateway costs per request compared with Fastify doing nothing but answer. */
export interface OwnCost {
  /** `GET /healthz` of a bare Fastify app (no plugin, hook or logger) answering what the gateway's does. */
  baseline: LoadFigures;
  /** The gateway's `/healthz`: every hook that runs on every request, and no more. */
  health: LoadFigures;
  /** PRODUCT_LIST_PATH signed in: also the session check and the cached catalogue answer. */
  products: LoadFigures;
  /** health / baseline and products / baseline requests per second. */
  healthRatio: number;
  productsRatio: number;
  /** Products in the measured answer (a listing of nothing would be a fast, meaningless figure). */
  listed: number;
}

/**
 * The baseline: Fastify of the gateway's version with one route and its defaults (no logger), in a
 * Node process of its own as the gateway is. Plain JavaScript, so `node -e` runs it as is.
 */
const BARE_FASTIFY = `
const app = require('fastify')();
app.get('/healthz', async () => ({ status: 'ok' }));
app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

export async function startBareFastify(log: (line: string) => void) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/healthz`;
  const child = await startProcess({
    name: 'bare-fastify',
    command: process.execPath,
    args: ['-e', BARE_FASTIFY],
    // The gateway's own fastify (the workspaces share one copy).
    cwd: path.join(REPO_ROOT, 'gateway'),
    env: { PORT: String(port) },
    log,
    quiet: true,
    ready: async () => (await fetch(url)).ok,
    readyTimeoutMs: 30_000,
  });
  return { url, child };
}

/** Signs the demo customer in on the user service; the session token. */
export async function signIn(userUrl: string): Promise<string> {
  const res = await fetch(`${userUrl}/auth/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_CUSTOMER),
  });
  if (!res.ok) throw new Error(`sign-in as ${DEMO_CUSTOMER.email} failed: ${res.status} ${await res.text()}`);
  const token = res.headers.get('token');
  if (!token) throw new Error('sign-in answered without a token header');
  return token;
}

export interface Target {
  url: string;
  /** Session token for the Authorization header; none for public routes. */
  token?: string;
  runs: autocannon.RawResult[];
  /** role → cores × seconds, summed over the runs. */
  coreSeconds: Record<string, number>;
}

export async function load(
  target: Target,
  connections: number,
  seconds: number,
  roles: Record<string, number>,
): Promise<void> {
  const meter = cpuMeter(roles);
  const raw = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    headers: target.token ? { authorization: `Bearer ${target.token}` } : {},
    skipAggregateResult: true,
  });
  target.runs.push(raw);
  for (const [role, cores] of Object.entries(meter())) {
    target.coreSeconds[role] = (target.coreSeconds[role] ?? 0) + cores * raw.duration;
  }
}

export function figures(target: Target, connections: number): LoadFigures {
  const merged = autocannon.aggregateResult(target.runs, { url: target.url, connections });
  const seconds = target.runs.reduce((sum, r) => sum + r.duration, 0);
  const completed = target.runs.reduce((sum, r) => sum + r.totalCompletedRequests, 0);
  const cores = Object.fromEntries(
    Object.entries(target.coreSeconds).map(([role, cs]) => [role, cs / seconds]),
  );
  return {
    requestsPerSecond: completed / seconds,
    p50Ms: merged.latency.p50,
    p99Ms: merged.latency.p99,
    requests: completed,
    failures: merged.non2xx + merged.errors + merged.timeouts,
    cores,
  };
}

export async function measureGatewayOverhead(
  urls: { user: string; gateway: string },
  opts: LoadOptions,
  log: (line: string) => void,
): Promise<GatewayOverhead> {
  const token = await signIn(urls.user);
  const bare = await startBareFastify(log);
  try {
    const target = (url: string, withToken = true): Target => ({
      url,
      ...(withToken ? { token } : {}),
      runs: [],
      coreSeconds: {},
    });
    const d = target(`${urls.user}/auth/jwt`);
    const g = target(`${urls.gateway}/api/auth/jwt`);
    const baseline = target(bare.url, false);
    const health = target(`${urls.gateway}/healthz`, false);
    const products = target(`${urls.gateway}${PRODUCT_LIST_PATH}`);
    // A bad token or route would make a fast, meaningless benchmark of error answers: check first.
    for (const t of [d, g, baseline, health]) {
      const res = await fetch(t.url, { headers: t.token ? { authorization: `Bearer ${t.token}` } : {} });
      if (!res.ok) throw new Error(`GET ${t.url} answered ${res.status}: ${await res.text()}`);
    }
    const listed = await pricedProducts(products.url, token);
    const all = [baseline, health, products, d, g];
    log(`gateway overhead: warming up ${opts.warmupSeconds} s on each target …`);
    for (const t of all) await load(target(t.url, !!t.token), opts.connections, opts.warmupSeconds, {});
    // Two halves each, in one order and then the reverse (direct – gateway – gateway – direct): a drift
    // in what else the machine does (other jobs, GC, JIT) weighs on every target alike.
    const half = Math.max(1, Math.round(opts.seconds / 2));
    log(
      `gateway overhead: measuring ${2 * half} s per target in halves: bare Fastify, /healthz, product list, direct, gateway, and back …`,
    );
    const roles = { ...opts.roles, 'bare fastify': bare.child.pid };
    for (const t of [...all, ...[...all].reverse()]) await load(t, opts.connections, half, roles);
    const [bf, hf, pf, df, gf] = all.map((t) => figures(t, opts.connections)) as [
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
    ];
    return {
      route: 'GET /auth/jwt',
      connections: opts.connections,
      seconds: 2 * half,
      warmupSeconds: opts.warmupSeconds,
      direct: df,
      viaGateway: gf,
      ratio: gf.requestsPerSecond / df.requestsPerSecond,
      own: {
        baseline: bf,
        health: hf,
        products: pf,
        healthRatio: hf.requestsPerSecond / bf.requestsPerSecond,
        productsRatio: pf.requestsPerSecond / bf.requestsPerSecond,
        listed,
      },
    };
  } finally {
    await bare.child.stop();
  }
}

/** How many priced products the signed-in listing holds; throws when it holds none. */
async function pricedProducts(url: string, token: string): Promise<number> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { result?: { price?: number }[] };
  if (!res.ok || !body.result?.length || body.result[0]?.price === undefined)
    throw new Error(`GET ${url} answered ${res.status} without priced products: ${JSON.stringify(body)}`);
  return body.result.length;
}
