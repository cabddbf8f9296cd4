/**
 * The event pipeline's knee (issue 31): the highest rate of password resets at which write → job p99
 * stays within 150 ms with no send refused and no job missing, on this machine.
 *
 * Stepped: the idle stack's cores first (5 s), then event-pipeline.ts's measurement at each rate in
 * turn (default 50, 100, 200, 400, 800/s; 2 s unmeasured, then about 8 s of sends, 200 to 4,000
 * events), stopping at the first rate that fails twice (`stepToKnee`); between the last rate that held
 * and the first that failed one more step halfway narrows the knee. Each step prints p50 / p99, sends
 * refused (the outbox cap's 503), jobs missing, and the CPU each process spent per event above its
 * idle cores, from the first send until the last job was added — where the cores go, which the rest
 * of a shared machine blurs far less than the latencies. Recorded in bench-results.md's own section;
 * the guard compares the knee.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { measureEventPipeline, type PipelineFigures } from './event-pipeline';
import { type Machine, machineCell } from './report';
import { resultsSection } from './results-section';
import { cpuMeter } from './stats';

export const KNEE_P99_MS = 150;
export const DEFAULT_KNEE_RATES = [50, 100, 200, 400, 800];
const STEP_SECONDS = 8;
const MIN_EVENTS = 200;
/** BullMQ trims its event stream near 10,000 entries, two per job: the measured jobs' must all be there. */
const MAX_EVENTS = 4000;
const WARMUP_SECONDS = 2;
const MAX_WARMUP_EVENTS = 1000;
/** The load generator and the rest of the machine: not the stack's CPU. */
const NOT_STACK = new Set(['bench', 'others']);

export interface KneeStep {
  perSecond: number;
  sent: number;
  p50: number;
  p99: number;
  /** p99 of the two halves: the event's write → the relay's send to Kafka, and that → the job. */
  writeToPublishedP99?: number;
  publishedToJobP99?: number;
  refused: number;
  /** The first refused send's status and words: the outbox cap's 503 is the pipeline's, a 429 the bench's. */
  firstRefusal?: string;
  missing: number;
  /** CPU ms per event above idle, per process (the load generator and `others` not included). */
  cpuMs: Record<string, number>;
  /** The stack's CPU ms per event above idle (the sum of `cpuMs`). */
  stackCpuMs: number;
  /** The rest of the machine meanwhile, cores. */
  others: number;
  held: boolean;
}

export interface KneeFigures {
  /** Cores per process with nothing sent (the stack's own, e.g. consumers' idle fetches). */
  idle: Record<string, number>;
  steps: KneeStep[];
  /** The highest rate that held; undefined when even the first did not. */
  knee?: number;
  /** The lowest rate that did not hold; undefined when every step held. */
  firstMissed?: number;
}

interface KneeStack {
  userUrl: string;
  kafkaBrokers: string[];
  redisUrl: string;
  runId: string;
}

const stackCores = (cores: Record<string, number>) =>
  Object.entries(cores).reduce((sum, [role, c]) => (NOT_STACK.has(role) ? sum : sum + c), 0);

/** Waits (at most `maxMs`) until the stack is back near its idle cores: a failed step leaves a backlog. */
async function settle(roles: Record<string, number>, idleStack: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const meter = cpuMeter(roles);
    await sleep(2000);
    if (stackCores(meter()) < idleStack + 0.15) return;
  }
}

function stepOf(p: PipelineFigures, idle: Record<string, number>): KneeStep {
  const sent = p.events + p.missing; // measured + missing = sent and accepted
  const cpuMs: Record<string, number> = {};
  for (const [role, cores] of Object.entries(p.coresToDone)) {
    if (NOT_STACK.has(role)) continue;
    cpuMs[role] = sent > 0 ? ((cores - (idle[role] ?? 0)) * p.doneSeconds * 1000) / sent : 0;
  }
  return {
    perSecond: p.perSecond,
    sent,
    p50: p.total.p50,
    p99: p.total.p99,
    writeToPublishedP99: p.writeToPublished.p99,
    publishedToJobP99: p.publishedToJob.p99,
    refused: p.failedSends,
    ...(p.firstRefusal ? { firstRefusal: p.firstRefusal } : {}),
    missing: p.missing,
    cpuMs,
    stackCpuMs: Object.values(cpuMs).reduce((a, b) => a + b, 0),
    others: p.coresToDone.others ?? 0,
    held: p.failedSends === 0 && p.missing === 0 && p.events > 0 && p.total.p99 <= KNEE_P99_MS,
  };
}

const r0 = (n: number) => (Number.isNaN(n) ? '–' : Math.round(n).toLocaleString('en-US'));
const r1 = (n: number) => n.toFixed(1);

/** "user 2.1, mongo 1.4, …" highest first, processes under 0.05 ms left out. */
export function cpuText(cpuMs: Record<string, number>): string {
  return Object.entries(cpuMs)
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([role, ms]) => `${role} ${r1(ms)}`)
    .join(', ');
}

/** " (p99 write → published 12, published → job 130)": which half a missed step lost its time in. */
const split = (s: KneeStep) =>
  s.writeToPublishedP99 === undefined || s.publishedToJobP99 === undefined
    ? ''
    : ` (p99 write → published ${r0(s.writeToPublishedP99)}, published → job ${r0(s.publishedToJobP99)})`;

function stepLine(s: KneeStep): string {
  return (
    `${String(s.perSecond).padStart(4)}/s ${`(${s.sent} events)`.padEnd(14)} p50 ${r0(s.p50)} / p99 ${r0(s.p99)} ms${split(s)}, ` +
    `refused ${s.refused}, missing ${s.missing}; CPU ms per event above idle ${r1(s.stackCpuMs)}: ${cpuText(s.cpuMs)}; ` +
    `others busy ${s.others.toFixed(2)} — ${s.held ? 'held' : 'MISSED'}` +
    (s.firstRefusal ? ` (first refused: ${s.firstRefusal.slice(0, 90)})` : '')
  );
}

/**
 * Steps through `rates` until one misses, then one step halfway narrows the knee. A missed step is
 * measured once more after the stack settles, and a rate misses only when both tries do: saturation
 * misses twice, a single stall does not (one pause of ~200 ms, both halves at once, ended runs at
 * 200/s whose 300 to 500/s then held). `every`: each rate once, none halfway (to compare CPU).
 */
export async function stepToKnee(
  rates: number[],
  measure: (perSecond: number) => Promise<Pick<KneeStep, 'held'>>,
  opts: { settle(): Promise<void>; every?: boolean },
): Promise<Pick<KneeFigures, 'knee' | 'firstMissed'>> {
  const holds = async (perSecond: number) => {
    if ((await measure(perSecond)).held) return true;
    if (opts.every) return false;
    await opts.settle();
    return (await measure(perSecond)).held;
  };
  let knee: number | undefined;
  let firstMissed: number | undefined;
  for (const perSecond of rates) {
    if (await holds(perSecond)) {
      if (firstMissed === undefined) knee = perSecond;
      continue;
    }
    firstMissed ??= perSecond;
    if (!opts.every) break;
    await opts.settle();
  }
  if (knee !== undefined && firstMissed !== undefined && !opts.every) {
    const between = Math.round((knee + firstMissed) / 20) * 10;
    if (between > knee && between < firstMissed) {
      await opts.settle();
      if (await holds(between)) knee = between;
      else firstMissed = between;
    }
  }
  return { knee, firstMissed };
}

export async function measurePipelineKnee(
  stack: KneeStack,
  opts: {
    rates: number[];
    roles: Record<string, number>;
    /** Measure every rate even after one missed, and no step halfway (to compare CPU per event). */
    every?: boolean;
  },
  log: (line: string) => void,
): Promise<KneeFigures> {
  await settle(opts.roles, 0.3, 60_000);
  const idleMeter = cpuMeter(opts.roles);
  await sleep(5000);
  const idle = idleMeter();
  const idleStack = stackCores(idle);
  log(
    `pipeline knee: idle stack ${idleStack.toFixed(2)} cores (${Object.entries(idle)
      .filter(([role, c]) => !NOT_STACK.has(role) && c >= 0.01)
      .sort((a, b) => b[1] - a[1])
      .map(([role, c]) => `${role} ${c.toFixed(2)}`)
      .join(', ')}); others ${(idle.others ?? 0).toFixed(2)}`,
  );
  const steps: KneeStep[] = [];
  const step = async (perSecond: number): Promise<KneeStep> => {
    const events = Math.min(MAX_EVENTS, Math.max(MIN_EVENTS, Math.round(perSecond * STEP_SECONDS)));
    // Two seconds at the step's rate first, unmeasured: the JVMs' and V8's code for the new rate's
    // batch sizes settles (at 400/s one 8 s step's p99 was 59-225 ms across runs without it).
    const warmupEvents = Math.min(MAX_WARMUP_EVENTS, Math.round(perSecond * WARMUP_SECONDS));
    const figures = await measureEventPipeline(
      stack,
      { events, warmupEvents, perSecond, roles: opts.roles, drainTimeoutMs: 15_000 },
      () => {},
    );
    const s = stepOf(figures, idle);
    log(`  ${stepLine(s)}`);
    steps.push(s);
    return s;
  };
  const { knee, firstMissed } = await stepToKnee(opts.rates, step, {
    settle: () => settle(opts.roles, idleStack, 60_000),
    every: opts.every,
  });
  log(
    knee === undefined
      ? `pipeline knee: none — even ${opts.rates[0]}/s missed p99 ≤ ${KNEE_P99_MS} ms with nothing refused or missing`
      : `pipeline knee: ${knee}/s (p99 ≤ ${KNEE_P99_MS} ms, nothing refused or missing)${firstMissed ? `; ${firstMissed}/s missed` : '; every step held'}`,
  );
  return { idle, steps, knee, firstMissed };
}

export function formatKnee(f: KneeFigures): string {
  return [
    '',
    `Event pipeline's knee — write → job p99 ≤ ${KNEE_P99_MS} ms, nothing refused or missing; CPU ms per event above idle, per process`,
    ...f.steps.map((s) => `  ${stepLine(s)}`),
    `  knee: ${f.knee === undefined ? 'none' : `${f.knee}/s`}${f.firstMissed ? ` (${f.firstMissed}/s missed)` : ''}`,
  ].join('\n');
}

const SECTION = "## The event pipeline's knee (`--only pipeline`)";
const HEADER = [
  '| when (UTC) | machine | node | others busy (cores, max) | idle stack (cores) | steps: rate p50 / p99 ms (refused, missing) | CPU ms per event above idle at the knee | knee (p99 ≤ 150 ms) /s |',
  '|---|---|---|---|---|---|---|---|',
];
const ROW = /^\| knee \d{4}-/;
const METHOD = [
  'Method: after the fixed rates of the pipeline part, `measurePipelineKnee` (infra/bench/src/pipeline-knee.ts)',
  "waits for the stack to settle, reads each process's idle cores for 5 s, then sends password resets to the",
  'user service at 50, 100, 200, 400, 800/s (`--knee-rates`), each for 2 s unmeasured, then for about 8 s',
  "(200 to 4,000 events) measured as the fixed rates are (the event's occurredAt → the BullMQ job added), and",
  'stops at the first rate whose p99 is over 150 ms or that had a send refused (the outbox cap answers 503)',
  'or a job missing in two tries (a missed step is measured once more after the stack settles: one stall',
  'misses once, saturation twice); one more step halfway between the last rate that held and that one',
  'narrows it. The knee is the highest rate that held.',
  'CPU per event: per process, its CPU time from the first send until the last job was added, less its idle',
  "cores over that time, divided by the events sent (/proc/<pid>/stat; Kafka and Mongo are JVMs, Redis the machine's",
  'server); the load generator and the rest of the machine are left out.',
].join('\n');

export function kneeRow(machine: Machine, f: KneeFigures): string {
  const at = f.steps.find((s) => s.perSecond === f.knee && s.held);
  const cells = [
    `knee ${machine.date}`,
    machineCell(machine),
    machine.node,
    Math.max(...f.steps.map((s) => s.others), f.idle.others ?? 0).toFixed(2),
    stackCores(f.idle).toFixed(2),
    f.steps
      .map(
        (s) =>
          `${s.perSecond}: ${r0(s.p50)} / ${r0(s.p99)}${s.refused || s.missing ? ` (${s.refused}, ${s.missing})` : ''}`,
      )
      .join('; '),
    at ? `${r1(at.stackCpuMs)}: ${cpuText(at.cpuMs)}` : '–',
    f.knee === undefined ? 'none' : `${f.knee}/s`,
  ];
  return `| ${cells.join(' | ')} |`;
}

const section = resultsSection({ title: SECTION, header: HEADER, row: ROW, method: METHOD, keep: 20 });
export const kneeRows = section.rows;
export const writeKneeRows = section.write;
