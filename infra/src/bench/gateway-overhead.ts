/**
 * Gateway overhead: GET /auth/jwt with a signed-in customer's token, called on the user service
 * itself and through the gateway (/api/auth/jwt), one after the other in the same run, same load.
 */
import autocannon from 'autocannon';
import { cpuMeter } from './stats';

export const DEMO_CUSTOMER = { email: 'customer@decor.example', password: 'demo1234' };

export interface LoadOptions {
  connections: number;
  /** Seconds measured per target. */
  seconds: number;
  /** Seconds of unmeasured load per target first (JIT, connection pools, Mongo caches). */
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

async function load(
  url: string,
  token: string,
  connections: number,
  seconds: number,
  roles: Record<string, number>,
): Promise<LoadFigures> {
  const meter = cpuMeter(roles);
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    requestsPerSecond: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    failures: r.non2xx + r.errors + r.timeouts,
    cores: meter(),
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
  await load(direct, token, opts.connections, opts.warmupSeconds, {});
  await load(viaGateway, token, opts.connections, opts.warmupSeconds, {});
  log(`gateway overhead: measuring ${opts.seconds} s direct, then ${opts.seconds} s through the gateway …`);
  const d = await load(direct, token, opts.connections, opts.seconds, opts.roles);
  const g = await load(viaGateway, token, opts.connections, opts.seconds, opts.roles);
  return {
    route: 'GET /auth/jwt',
    connections: opts.connections,
    seconds: opts.seconds,
    warmupSeconds: opts.warmupSeconds,
    direct: d,
    viaGateway: g,
    ratio: g.requestsPerSecond / d.requestsPerSecond,
  };
}
