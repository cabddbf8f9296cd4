/**
 * What tracing costs (issue 32), in one run: one bench stack (separate built processes, as
 * production), its six core processes restarted for each setting — tracing off, on at 10 %
 * sampling, on at 100 % — in several rounds, each round in another order (off·10·100, 10·100·off,
 * 100·off·10 …), so the drift of a shared 2-core machine weighs on every setting alike. Per setting
 * and round, both through the gateway:
 * - the gateway's throughput: GET /api/auth/jwt signed in (gateway-overhead.ts's load), after a
 *   warm-up of the same;
 * - the event pipeline: POST /api/send/reset at a steady rate, from the event's occurredAt to the
 *   e-mail job added (event-pipeline.ts), so the gateway's sampling decides which events are traced.
 * Figures per setting pool every round (requests over seconds; the p99 of all events), and each
 * round's own is kept for the spread. Beside them, the CPU the product's six processes spent per
 * request and per event (/proc ticks): on a machine others load, throughput and latency follow the
 * share of the cores the product gets, while the CPU a request costs is what tracing adds to it. Spans go to a sink in this process that counts them and throws
 * them away (a Zipkin server's own CPU would be the viewer's cost, not the services').
 * Appends a section to infra/bench/tracing-cost.md.
 *   npx tsx infra/bench/src/tracing-cost.ts [--rounds 3] [--seconds 10] [--events 1000] [--rate 100] [--no-write]
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@decor/cli';
import { measureEventPipeline } from './event-pipeline';
import { figures, load, signIn, type Target } from './gateway-overhead';
import { startBenchStack } from './stack';
import { percentile, processRoles } from './stats';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    'warmup-seconds': { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    events: { type: 'string', default: '1000' },
    'warmup-events': { type: 'string', default: '200' },
    rate: { type: 'string', default: '100' },
    settings: { type: 'string', default: 'off,10,100' },
    note: { type: 'string', default: '' },
    'no-write': { type: 'boolean', default: false },
  },
});
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Setting {
  mode: string;
  env: Record<string, string | undefined>;
  gateway: Target;
  /** Every measured event's latency, all rounds. */
  totals: number[];
  roundRps: number[];
  roundP99: number[];
  missing: number;
  failures: number;
  spans: number;
  /** CPU seconds of the product's processes and the requests / events they served, all rounds. */
  gatewayCpu: { seconds: number; count: number };
  pipelineCpu: { seconds: number; count: number };
}

/** The product's own processes: where tracing's code runs (not the load generator, Kafka, Mongo…). */
const PRODUCT = ['gateway', 'user', 'catalogue', 'cart', 'order', 'notification'];
const productCores = (cores: Record<string, number>) =>
  PRODUCT.reduce((sum, role) => sum + (cores[role] ?? 0), 0);

/** CPU milliseconds per request or event. */
const cpuMs = (c: { seconds: number; count: number }) =>
  (c.count > 0 ? (c.seconds * 1000) / c.count : 0).toFixed(2);

/** The loadavg of /proc: busy cores of the whole machine, others' work included. */
const load1 = () => loadavg()[0]?.toFixed(1) ?? '?';

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
  const settings: Setting[] = (args.settings as string).split(',').map((m) => ({
    mode: m === 'off' ? 'off' : `${m} %`,
    env:
      m === 'off'
        ? { TRACING_ZIPKIN_URL: undefined, OTEL_TRACES_SAMPLER_ARG: undefined }
        : { TRACING_ZIPKIN_URL: sinkUrl, OTEL_TRACES_SAMPLER_ARG: String(Number(m) / 100) },
    gateway: { url: '', runs: [], coreSeconds: {} },
    totals: [],
    roundRps: [],
    roundP99: [],
    missing: 0,
    failures: 0,
    spans: 0,
    gatewayCpu: { seconds: 0, count: 0 },
    pipelineCpu: { seconds: 0, count: 0 },
  }));
  const apply = (s: Setting) => {
    // The stack's children inherit this process's environment (startProcess merges over it).
    for (const [k, v] of Object.entries(s.env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  const rounds = Number(args.rounds);
  const connections = Number(args.connections);
  const loadBefore = load1();
  const started = new Date();
  apply(settings[0] as Setting);
  const stack = await startBenchStack({ log, logLevel: 'warn' });
  let current: Setting | undefined = settings[0];
  try {
    const token = await signIn(stack.userUrl);
    for (let round = 0; round < rounds; round++) {
      // Round r starts at setting r: every setting runs first, second and third once in 3 rounds.
      const order = settings.map((_, i) => settings[(i + round) % settings.length] as Setting);
      for (const s of order) {
        if (s !== current) {
          apply(s);
          await stack.restartServices();
          current = s;
        }
        log(`— round ${round + 1}/${rounds}, tracing ${s.mode} (load ${load1()}) —`);
        const roles = processRoles(stack.pids);
        const url = `${stack.gatewayUrl}/api/auth/jwt`;
        const check = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        if (!check.ok) throw new Error(`GET ${url} answered ${check.status}`);
        const before = spans;
        // JIT and connection pools: throughput still climbs over the first seconds of load.
        await load(
          { url, token, runs: [], coreSeconds: {} },
          connections,
          Number(args['warmup-seconds']),
          {},
        );
        const measured: Target = { url, token, runs: [], coreSeconds: {} };
        await load(measured, connections, Number(args.seconds), roles);
        const g = figures(measured, connections);
        s.gateway.url = url;
        s.gateway.runs.push(...measured.runs);
        for (const [role, cs] of Object.entries(measured.coreSeconds))
          s.gateway.coreSeconds[role] = (s.gateway.coreSeconds[role] ?? 0) + cs;
        s.roundRps.push(g.requestsPerSecond);
        const roundGatewayCpu = {
          seconds: PRODUCT.reduce((sum, role) => sum + (measured.coreSeconds[role] ?? 0), 0),
          count: g.requests,
        };
        s.gatewayCpu.seconds += roundGatewayCpu.seconds;
        s.gatewayCpu.count += roundGatewayCpu.count;
        s.failures += g.failures;
        const pipeline = await measureEventPipeline(
          {
            userUrl: stack.userUrl,
            viaGatewayUrl: stack.gatewayUrl,
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
          () => {},
        );
        s.totals.push(...pipeline.totals);
        s.roundP99.push(pipeline.total.p99);
        // The CPU of the sending window served every event sent in it.
        const roundPipelineCpu = {
          seconds: productCores(pipeline.cores) * pipeline.sendSeconds,
          count: Number(args.events),
        };
        s.pipelineCpu.seconds += roundPipelineCpu.seconds;
        s.pipelineCpu.count += roundPipelineCpu.count;
        s.missing += pipeline.missing + pipeline.failedSends;
        await new Promise((r) => setTimeout(r, 1500)); // the last batches of spans
        s.spans += spans - before;
        log(
          `  gateway ${g.requestsPerSecond.toFixed(0)} req/s (p99 ${g.p99Ms} ms, ${g.failures} failed), ${cpuMs(roundGatewayCpu)} CPU ms a request; pipeline p50 ${pipeline.total.p50} / p99 ${pipeline.total.p99} ms, ${pipeline.missing} missing, ${cpuMs(roundPipelineCpu)} CPU ms an event; others busy ${(pipeline.cores.others ?? 0).toFixed(2)} cores; ${s.spans} spans so far`,
        );
      }
    }
  } finally {
    await stack.stop();
    sink.close();
  }
  report(settings, { rounds, loadBefore, started });
}

function report(settings: Setting[], run: { rounds: number; loadBefore: string; started: Date }): void {
  const off = settings.find((s) => s.mode === 'off') ?? (settings[0] as Setting);
  const rps = (s: Setting) => figures(s.gateway, Number(args.connections)).requestsPerSecond;
  const p99 = (s: Setting) => percentile(s.totals, 99);
  const pct = (v: number, base: number) =>
    `${v >= base ? '+' : ''}${(((v - base) / base) * 100).toFixed(1)} %`;
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(' / ');
  const cpu = (c: { seconds: number; count: number }) => Number(cpuMs(c));
  const ten = settings.find((s) => s.mode === '10 %');
  const within = (v: number, base: number, higherIsBetter: boolean) =>
    higherIsBetter ? v >= 0.9 * base : v <= 1.1 * base;
  const verdict = ten
    ? [
        `10 % against off: throughput ${pct(rps(ten), rps(off))} (${within(rps(ten), rps(off), true) ? 'within 10 %' : 'not within 10 %'}), pipeline p99 ${pct(p99(ten), p99(off))} (${within(p99(ten), p99(off), false) ? 'within 10 %' : 'not within 10 %'})`,
        `CPU per gateway request ${pct(cpu(ten.gatewayCpu), cpu(off.gatewayCpu))} (${within(cpu(ten.gatewayCpu), cpu(off.gatewayCpu), false) ? 'within 10 %' : 'not within 10 %'}), per event ${pct(cpu(ten.pipelineCpu), cpu(off.pipelineCpu))} (${within(cpu(ten.pipelineCpu), cpu(off.pipelineCpu), false) ? 'within 10 %' : 'not within 10 %'})`,
      ].join('; ')
    : '';
  const lines = [
    '',
    `## ${run.started.toISOString().slice(0, 16)}Z — ${run.rounds} rounds on one stack, both parts through the gateway${args.note ? `; ${args.note}` : ''}`,
    '',
    `${cpus().length} cores (${cpus()[0]?.model.trim()}), load ${run.loadBefore} before and ${load1()} after; per setting and round ${args['warmup-seconds']} s warm-up and ${args.seconds} s of GET /api/auth/jwt (${args.connections} connections), then ${args['warmup-events']} + ${args.events} resets at ${args.rate}/s. ${verdict}.`,
    '',
    '| tracing | gateway req/s, all rounds (vs off) | per round | CPU ms per gateway request (vs off) | pipeline p50 ms | pipeline p99 ms, all events (vs off) | p99 per round | CPU ms per event (vs off) | events missing | gateway failures | spans sent |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...settings.map(
      (s) =>
        `| ${s.mode} | ${rps(s).toFixed(0)} (${pct(rps(s), rps(off))}) | ${list(s.roundRps)} | ${cpuMs(s.gatewayCpu)} (${pct(cpu(s.gatewayCpu), cpu(off.gatewayCpu))}) | ${percentile(s.totals, 50).toFixed(0)} | ${p99(s).toFixed(0)} (${pct(p99(s), p99(off))}) | ${list(s.roundP99)} | ${cpuMs(s.pipelineCpu)} (${pct(cpu(s.pipelineCpu), cpu(off.pipelineCpu))}) | ${s.missing} | ${s.failures} | ${s.spans} |`,
    ),
  ];
  if (!args['no-write'])
    appendFileSync(path.join(REPO_ROOT, 'infra', 'bench', 'tracing-cost.md'), `${lines.join('\n')}\n`);
  log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
