/**
 * Which spans tracing makes, and how many a traced request brings: the bench stack at one sampling
 * share, N signed-in GET /api/auth/jwt and N resets through the gateway, every span kept and counted
 * by process and name. What to look at when tracing costs more than its share.
 *   npx tsx infra/bench/src/span-census.ts [--ratio 0.1] [--requests 300]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { signIn } from './gateway-overhead';
import { startBenchStack } from './stack';

const { values: args } = parseArgs({
  options: { ratio: { type: 'string', default: '0.1' }, requests: { type: 'string', default: '300' } },
});
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Span {
  traceId: string;
  name: string;
  localEndpoint?: { serviceName?: string };
}

async function main(): Promise<void> {
  const spans: Span[] = [];
  const sink = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      spans.push(...(JSON.parse(body || '[]') as Span[]));
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  process.env.TRACING_ZIPKIN_URL = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/api/v2/spans`;
  process.env.OTEL_TRACES_SAMPLER_ARG = String(args.ratio);
  process.env.OTEL_BSP_SCHEDULE_DELAY = '200';
  const stack = await startBenchStack({ log, logLevel: 'warn' });
  try {
    const token = await signIn(stack.userUrl);
    await new Promise((r) => setTimeout(r, 2000));
    spans.length = 0; // the start-up's own
    const n = Number(args.requests);
    for (let i = 0; i < n; i++) {
      await fetch(`${stack.gatewayUrl}/api/auth/jwt`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.text(),
      );
    }
    await new Promise((r) => setTimeout(r, 2000));
    report('GET /api/auth/jwt', spans.splice(0), n);
    for (let i = 0; i < n; i++) {
      await fetch(`${stack.gatewayUrl}/api/send/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'customer@decor.example' }),
      }).then((r) => r.text());
    }
    await new Promise((r) => setTimeout(r, 5000));
    report('POST /api/send/reset', spans.splice(0), n);
    await new Promise((r) => setTimeout(r, 5000));
    report('5 s idle after', spans.splice(0), 0);
  } finally {
    await stack.stop();
    sink.close();
  }
}

function report(what: string, list: Span[], requests: number): void {
  const traces = new Set(list.map((s) => s.traceId));
  log(`\n${what}: ${requests} requests, ${traces.size} traces, ${list.length} spans`);
  const byName = new Map<string, number>();
  for (const s of list) {
    const key = `${s.localEndpoint?.serviceName}: ${s.name}`;
    byName.set(key, (byName.get(key) ?? 0) + 1);
  }
  for (const [key, count] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) log(`  ${count}\t${key}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
