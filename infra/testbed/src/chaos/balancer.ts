/**
 * What stands in front of several gateways in production (a Kubernetes Service and its ingress, a
 * cloud load balancer), as small as the rolling restart needs: each request goes to the next gateway
 * whose /readyz answered 200 at the last probe (every 500 ms); a request whose connection was refused
 * goes to the next one (nothing was sent, so any method). Nothing else is retried: a reset or a
 * timeout is answered 502, which the suite counts as lost.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BalancerTarget {
  url: string;
  readyUrl: string;
}

export interface Balancer {
  url: string;
  /** Requests sent again to the next gateway after a refused connection. */
  refusedRetries(): number;
  stop(): Promise<void>;
}

const PROBE_EVERY_MS = 500;

export async function startBalancer(targets: BalancerTarget[]): Promise<Balancer> {
  const ready = new Set<BalancerTarget>(targets);
  let stopped = false;
  let turn = 0;
  let retried = 0;
  const probe = async () => {
    await Promise.all(
      targets.map(async (t) => {
        const ok = await fetch(t.readyUrl, { signal: AbortSignal.timeout(2_000) })
          .then((r) => r.status === 200)
          .catch(() => false);
        if (ok) ready.add(t);
        else ready.delete(t);
      }),
    );
  };
  const prober = setInterval(() => void probe(), PROBE_EVERY_MS);
  const agent = new http.Agent({ keepAlive: true });
  /** The ready gateways in turn; none ready: every gateway (a refusal then moves on). */
  const order = (): BalancerTarget[] => {
    const pool = targets.filter((t) => ready.has(t));
    const list = pool.length > 0 ? pool : targets;
    const first = turn++ % list.length;
    return [...list.slice(first), ...list.slice(0, first)];
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const candidates = order();
      const attempt = (i: number) => {
        const target = new URL(candidates[i]?.url as string);
        const upstream = http.request(
          {
            agent,
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: target.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', (err: Error & { code?: string }) => {
          if (err.code === 'ECONNREFUSED' && i + 1 < candidates.length && !stopped) {
            retried++;
            attempt(i + 1);
            return;
          }
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: `balancer: ${err.code ?? err.message}` }));
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusedRetries: () => retried,
    stop: async () => {
      stopped = true;
      clearInterval(prober);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
