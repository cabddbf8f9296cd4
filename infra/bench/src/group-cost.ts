/**
 * What a consumer group costs the broker: `npx tsx infra/bench/src/group-cost.ts [--rate 50]
 * [--seconds 20] [--groups 10]`. Starts a Kafka of its own (as the test mode does), publishes to one
 * 6-partition topic at a steady rate and reads it with N groups of one member each, the way our
 * processes do, and measures the broker's CPU (its /proc times) in each setting:
 * - no group, then N groups committing after every batch (kafkajs' autoCommit, what every
 *   own-group reader did before 2026-11-27), then N groups that commit nothing (own-group readers now);
 * - the same N idle groups (nothing published) with fetch waits of 100, 500 and 5,000 ms.
 * Prints a table; records nothing. The numbers are for comparing settings on one machine.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ensureTopics } from '@decor/kit';
import { freePort, startKafka } from '@decor/stack';
import { type Consumer, Kafka, logLevel } from 'kafkajs';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    groups: { type: 'string', default: '10' },
  },
});
const rate = Number(args.rate);
const seconds = Number(args.seconds);
const groups = Number(args.groups);

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'decor-group-cost-'));
  const port = await freePort();
  const broker = await startKafka({
    port,
    controllerPort: await freePort(),
    dir,
    log: () => {},
    useStorageTemplate: true,
    quiet: true,
  });
  const kafka = new Kafka({
    clientId: 'group-cost',
    brokers: [`127.0.0.1:${port}`],
    logLevel: logLevel.NOTHING,
  });
  const topic = 'group-cost';
  // The kit's: kafkajs' own wait for leaders gives up on a busy broker's first "unknown topic".
  await ensureTopics(kafka, [topic]);
  const producer = kafka.producer();
  await producer.connect();
  const rows: string[] = [];
  try {
    /** Broker cores used over `seconds` while `publishing` (or not) with `readers` reading. */
    const measure = async (label: string, readers: Consumer[], publishing: boolean) => {
      await sleep(3000); // joins settle
      const start = cpuSeconds(broker.pid);
      const began = performance.now();
      let sent = 0;
      while (performance.now() - began < seconds * 1000) {
        if (publishing) {
          await producer.send({
            topic,
            acks: -1,
            messages: [{ key: String(sent % 3), value: `event ${sent}` }],
          });
          sent += 1;
        }
        const due = began + (sent * 1000) / rate - performance.now();
        await sleep(publishing ? Math.max(0, due) : 1000);
      }
      const cores = (cpuSeconds(broker.pid) - start) / ((performance.now() - began) / 1000);
      rows.push(
        `| ${label} | ${readers.length} | ${publishing ? `${rate}/s` : 'idle'} | ${cores.toFixed(3)} |`,
      );
      if (label !== 'warm-up (JIT)') process.stdout.write(`${rows.at(-1)}\n`);
      await Promise.all(readers.map((c) => c.disconnect()));
    };
    const readers = async (n: number, autoCommit: boolean, maxWaitTimeInMs: number, tag: string) => {
      const all: Consumer[] = [];
      for (let i = 0; i < n; i++) {
        const c = kafka.consumer({ groupId: `${tag}-${i}`, maxWaitTimeInMs });
        await c.connect();
        await c.subscribe({ topic, fromBeginning: false });
        await c.run({ autoCommit, eachMessage: async () => {} });
        all.push(c);
      }
      return all;
    };
    // Unmeasured: the broker's JIT compiles its hot paths in the first seconds of traffic.
    await measure('warm-up (JIT)', [], true);
    process.stdout.write('| setting | groups | events | broker cores |\n|---|---|---|---|\n');
    await measure('no reader', [], true);
    await measure(
      'commit after every batch, 500 ms fetch wait',
      await readers(groups, true, 500, 'commit'),
      true,
    );
    await measure('no commits, 500 ms fetch wait', await readers(groups, false, 500, 'nocommit'), true);
    for (const wait of [100, 500, 5000]) {
      await measure(
        `no commits, ${wait} ms fetch wait`,
        await readers(groups, false, wait, `idle${wait}`),
        false,
      );
    }
  } finally {
    await producer.disconnect().catch(() => {});
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
