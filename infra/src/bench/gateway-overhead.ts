/**
 * Gateway overhead: GET /auth/jwt with a signed-in customer's token, called on the user service
 * itself and through the gateway (/api/auth/jwt), interleaved in the same run, same load.
 */
import autocannon from 'autocannon';
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
  const direct = `${urls.user}/auth/jwt`;
  const viaGateway = `${urls.gateway}/api/auth/jwt`;
  // A bad token or route would make a fast, meaningless benchmark of error answers: check first.
  for (const url of [direct, viaGateway]) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  }
  log(`gateway overhead: warming up ${opts.warmupSeconds} s on each target …`);
  const warm = (url: string): Target => ({ url, token, runs: [], coreSeconds: {} });
  await load(warm(direct), opts.connections, opts.warmupSeconds, {});
  await load(warm(viaGateway), opts.connections, opts.warmupSeconds, {});
  // Two halves each, direct – gateway – gateway – direct: a drift in what else the machine does
  // during the run (other jobs, GC, JIT) weighs on both targets alike instead of on the second one.
  const half = Math.max(1, Math.round(opts.seconds / 2));
  log(`gateway overhead: measuring ${2 * half} s per target in halves: direct, gateway, gateway, direct …`);
  const d: Target = { url: direct, token, runs: [], coreSeconds: {} };
  const g: Target = { url: viaGateway, token, runs: [], coreSeconds: {} };
  for (const target of [d, g, g, d]) await load(target, opts.connections, half, opts.roles);
  const df = figures(d, opts.connections);
  const gf = figures(g, opts.connections);
  return {
    route: 'GET /auth/jwt',
    connections: opts.connections,
    seconds: 2 * half,
    warmupSeconds: opts.warmupSeconds,
    direct: df,
    viaGateway: gf,
    ratio: gf.requestsPerSecond / df.requestsPerSecond,
  };
}
