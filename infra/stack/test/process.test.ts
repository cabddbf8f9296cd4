/** The process helper and the start-up errors a person sees when something is in the way. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInfra } from '../src/infra';
import { startMongo } from '../src/mongo';
import { assertPortFree, belowRestartRanges, canConnect, freePort, restartPortRange } from '../src/ports';
import { ProcessStartError, startProcess } from '../src/process';

const node = process.execPath;
const lines: string[] = [];
const log = (line: string) => lines.push(line);

async function occupy(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return { port: address.port, server };
}

test('a child that exits before it is ready is reported with its exit code and output', async () => {
  const started = startProcess({
    name: 'early',
    command: node,
    args: [
      '-e',
      'console.log("starting"); console.error("listen EADDRINUSE: 127.0.0.1:4569"); process.exit(3)',
    ],
    ready: /listening/,
    log,
  });
  await expect(started).rejects.toBeInstanceOf(ProcessStartError);
  await expect(started).rejects.toThrow(
    /early exited with code 3 before it was ready[\s\S]*EADDRINUSE: 127\.0\.0\.1:4569/,
  );
});

test('output is prefixed with the name; readiness by regex; stop() ends the child', async () => {
  lines.length = 0;
  const child = await startProcess({
    name: 'ticker',
    command: node,
    args: ['-e', 'console.log("ready on 1234"); setInterval(() => {}, 1000)'],
    ready: /^ready on \d+/,
    log,
  });
  expect(lines).toEqual(['[ticker] ready on 1234']); // no colour: stdout is not a terminal here
  await child.stop();
  expect(await child.exited).toEqual({ code: null, signal: 'SIGTERM' });
});

test('a probe decides readiness; a child ignoring SIGTERM is killed after the grace period', async () => {
  const port = await freePort();
  let probes = 0;
  const child = await startProcess({
    name: 'stubborn',
    command: node,
    args: [
      '-e',
      `process.on("SIGTERM", () => console.log("ignoring SIGTERM"));
       setTimeout(() => require("node:net").createServer().listen(${port}, "127.0.0.1"), 200);`,
    ],
    ready: async () => {
      probes++;
      return canConnect(port);
    },
    probeIntervalMs: 20,
    stopGraceMs: 300,
    log,
  });
  expect(probes).toBeGreaterThan(1); // not ready at the first look
  await child.stop();
  expect((await child.exited).signal).toBe('SIGKILL');
});

test('a child that never becomes ready times out with its last lines, and is stopped', async () => {
  const started = startProcess({
    name: 'slow',
    command: node,
    args: ['-e', 'console.log("still warming up"); setInterval(() => {}, 1000)'],
    ready: async () => {
      throw new Error('connection refused');
    },
    // Long enough for a node to start and print on a loaded machine (at 400 ms CI's had not yet).
    readyTimeoutMs: 3_000,
    log,
  });
  await expect(started).rejects.toThrow(
    /slow was not ready within 3 s \(last readiness check: connection refused\)[\s\S]*still warming up/,
  );
});

test('a start aborted before the child is ready stops the child, then rejects', async () => {
  const abort = new AbortController();
  let pid = 0;
  const started = startProcess({
    name: 'starting',
    command: node,
    args: ['-e', 'console.log(process.pid); setInterval(() => {}, 1000)'],
    ready: /^never$/,
    signal: abort.signal,
    log: (line) => {
      pid = Number(line.replace('[starting] ', ''));
      abort.abort();
    },
  });
  await expect(started).rejects.toThrow('starting stopped before it was ready (killed by SIGTERM)');
  // Gone by the time the start rejected.
  expect(pid).toBeGreaterThan(0);
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
});

test('a missing command is named, with how to install it', async () => {
  await expect(
    startProcess({ name: 'x', command: 'decor-no-such-command', installHint: 'apt-get install decor', log }),
  ).rejects.toThrow("'decor-no-such-command' was not found on PATH — apt-get install decor");
});

describe('a port already taken', () => {
  let taken: { port: number; server: Server };
  beforeAll(async () => {
    taken = await occupy();
  });
  afterAll(() => new Promise<void>((resolve) => taken.server.close(() => resolve())));

  test('the check names the port and the variable that moves it', async () => {
    await expect(assertPortFree(taken.port, 'kafka', 'KAFKA_PORT')).rejects.toThrow(
      `port ${taken.port} on 127.0.0.1 (kafka) is already in use`,
    );
    await expect(assertPortFree(taken.port, 'kafka', 'KAFKA_PORT')).rejects.toThrow(
      'set KAFKA_PORT to use another port',
    );
    await expect(assertPortFree(await freePort(), 'kafka')).resolves.toBeUndefined();
  });

  test('a free port is drawn below the range of outgoing connections, and is free', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeLessThan(Number(low));
      await expect(assertPortFree(port, 'a test server')).resolves.toBeUndefined();
    }
    expect(new Set(ports).size).toBeGreaterThan(15); // drawn at random, not one port for all
  });

  test('never the same free port twice in one process (a stack draws twenty, then binds them)', async () => {
    // 400 draws from ~12,000 ports would repeat one ~7 times on average if drawn independently.
    const ports: number[] = [];
    for (let batch = 0; batch < 8; batch++) {
      ports.push(...(await Promise.all(Array.from({ length: 50 }, () => freePort()))));
    }
    expect(new Set(ports).size).toBe(ports.length);
  });

  test('restart ranges lie below the shared range, apart from each other, and freePort keeps to them', async () => {
    const shared = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    const copy = restartPortRange('start-copy');
    const chaos = restartPortRange('chaos');
    expect(copy.top).toBeLessThanOrEqual(Math.min(...shared));
    expect(chaos.top).toBeLessThanOrEqual(copy.bottom);
    expect(belowRestartRanges()).toBeLessThanOrEqual(chaos.bottom);
    for (const range of [copy, chaos]) {
      const drawn = await Promise.all(Array.from({ length: 30 }, () => freePort(range)));
      for (const port of drawn) {
        expect(port).toBeGreaterThanOrEqual(range.bottom);
        expect(port).toBeLessThan(range.top);
      }
    }
  });

  test('startInfra in dev mode refuses before starting anything', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'decor-dev-'));
    const saved = process.env.MONGO_PORT;
    process.env.MONGO_PORT = String(taken.port);
    try {
      await expect(startInfra({ mode: 'dev', dataDir, log })).rejects.toThrow(
        new RegExp(`port ${taken.port} on 127\\.0\\.0\\.1 \\(mongo\\) is already in use.*set MONGO_PORT`),
      );
    } finally {
      if (saved === undefined) delete process.env.MONGO_PORT;
      else process.env.MONGO_PORT = saved;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('the MongoDB launcher, started on it anyway, exits early and says why', async () => {
    await expect(
      startMongo({ port: taken.port, storage: { kind: 'memory' }, log, quiet: true }),
    ).rejects.toThrow(
      new RegExp(
        `mongo exited with code 1 before it was ready[\\s\\S]*cannot bind 127\\.0\\.0\\.1:${taken.port}`,
      ),
    );
  });
});
