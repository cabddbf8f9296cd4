/**
 * What tracing costs (issue 32), in one run: the bench stack (separate built processes, as
 * production) started three times — tracing off, on at 10 % sampling, on at 100 % — and each time
 * the gateway's throughput (GET /api/auth/jwt through the gateway, gateway-overhead.ts) and the event
 * pipeline's latency (a reset request → the e-mail job added, event-pipeline.ts) measured alike.
 * Spans go to a sink in this process that counts them and throws them away (a Zipkin server's own
 * CPU would be the viewer's cost, not the services'). Appends a row set to infra/bench/tracing-cost.md.
 *   npx tsx infra/bench/src/tracing-cost.ts [--seconds 10] [--events 1000] [--rate 100] [--order off,10,100]
 * Each setting's stack runs after the previous one's: `--order` another order shows the machine's drift.
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@decor/cli';
import { measureEventPipeline } from './event-pipeline';
import { measureGatewayOverhead } from './gateway-overhead';
import { startBenchStack } from './stack';
import { processRoles } from './stats';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    'warmup-seconds': { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    events: { type: 'string', default: '1000' },
    'warmup-events': { type: 'string', default: '200' },
    rate: { type: 'string', default: '100' },
    order: { type: 'string', default: 'off,10,100' },
  },
});
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Row {
  mode: string;
  gatewayRps: number;
  gatewayP99Ms: number;
  pipelineP50: number;
  pipelineP99: number;
  missing: number;
  spans: number;
}

async function main(): Promise<void> {
  let spans = 0;
  const sink = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      // Each span of Zipkin's JSON has one "traceId": counted without parsing.
      spans += body.split('"traceId"').length - 1;
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/api/v2/spans`;
  const modes = (args.order as string).split(',').map((m) =>
    m === 'off'
      ? { mode: 'off', env: { TRACING_ZIPKIN_URL: undefined, OTEL_TRACES_SAMPLER_ARG: undefined } }
      : {
          mode: `${m} %`,
          env: { TRACING_ZIPKIN_URL: sinkUrl, OTEL_TRACES_SAMPLER_ARG: String(Number(m) / 100) },
        },
  );
  const rows: Row[] = [];
  for (const { mode, env } of modes) {
    // The bench's children inherit this process's environment (startProcess merges over it).
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    log(`— tracing ${mode} —`);
    const before = spans;
    const stack = await startBenchStack({ log, logLevel: 'warn' });
    try {
      const roles = processRoles(stack.pids);
      const gateway = await measureGatewayOverhead(
        { user: stack.userUrl, gateway: stack.gatewayUrl },
        {
          connections: Number(args.connections),
          seconds: Number(args.seconds),
          warmupSeconds: Number(args['warmup-seconds']),
          roles,
        },
        log,
      );
      const pipeline = await measureEventPipeline(
        {
          userUrl: stack.userUrl,
          kafkaBrokers: stack.endpoints.kafkaBrokers,
          redisUrl: stack.endpoints.redisUrl,
          runId: stack.runId,
        },
        {
          events: Number(args.events),
          warmupEvents: Number(args['warmup-events']),
          perSecond: Number(args.rate),
          roles,
        },
        log,
      );
      await new Promise((r) => setTimeout(r, 1500)); // the last batches of spans
      const row: Row = {
        mode,
        gatewayRps: gateway.viaGateway.requestsPerSecond,
        gatewayP99Ms: gateway.viaGateway.p99Ms,
        pipelineP50: pipeline.total.p50,
        pipelineP99: pipeline.total.p99,
        missing: pipeline.missing,
        spans: spans - before,
      };
      log(JSON.stringify(row));
      rows.push(row);
    } finally {
      await stack.stop();
    }
  }
  sink.close();
  const off = rows.find((r) => r.mode === 'off') ?? (rows[0] as Row);
  const pct = (v: number, base: number) =>
    `${v >= base ? '+' : ''}${(((v - base) / base) * 100).toFixed(1)} %`;
  const out = path.join(REPO_ROOT, 'infra', 'bench', 'tracing-cost.md');
  if (!existsSync(out))
    writeFileSync(
      out,
      "# What tracing costs\n\nWritten by `npx tsx infra/bench/src/tracing-cost.ts` (how: its header). Goal (issue 32): at 10 % sampling, the gateway's throughput and the pipeline's p99 within 10 % of tracing off.\n",
    );
  const lines = [
    '',
    `## ${new Date().toISOString().slice(0, 16)}Z — ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)} at the end; ${args.seconds} s per gateway target (${args.connections} connections), ${args.events} events at ${args.rate}/s; in this order`,
    '',
    '| tracing | gateway req/s (vs off) | gateway p99 ms | pipeline p50 ms | pipeline p99 ms (vs off) | events missing | spans sent |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.mode} | ${r.gatewayRps.toFixed(0)} (${pct(r.gatewayRps, off.gatewayRps)}) | ${r.gatewayP99Ms.toFixed(0)} | ${r.pipelineP50.toFixed(0)} | ${r.pipelineP99.toFixed(0)} (${pct(r.pipelineP99, off.pipelineP99)}) | ${r.missing} | ${r.spans} |`,
    ),
  ];
  appendFileSync(out, `${lines.join('\n')}\n`);
  log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
