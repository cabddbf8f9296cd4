import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CACHE_DIR, classDataArchive, ensureJars, javaHint, STACK_DIR } from './jars';
import { type RunningProcess, startProcess } from './process';

export interface MongoOptions {
  port: number;
  /** 'memory' for tests; an H2 MVStore file for `npm start` (data survives restarts). */
  storage: { kind: 'memory' } | { kind: 'h2'; file: string };
  log: (line: string) => void;
  quiet?: boolean;
}

const LAUNCHER = join(STACK_DIR, 'mongo', 'Launcher.java');

function run(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
}

/**
 * The launcher runs as a single-file source program (`java -cp … Launcher.java`), which compiles
 * it in memory on every start — about a second of CPU that each `npm test` would pay while Kafka
 * starts on the same two cores. So it is compiled once into a jar in the cache (a jar, because the
 * JVM's class-data archive refuses class folders) when the JDK's javac and jar are there; else the
 * source launch is used. Returns the java arguments.
 */
async function launcherArgs(lib: string): Promise<string[]> {
  const hash = createHash('sha256').update(readFileSync(LAUNCHER)).digest('hex').slice(0, 12);
  const jar = join(CACHE_DIR, 'mongo', `launcher-${hash}.jar`);
  const classpath = join(lib, '*');
  if (!existsSync(jar)) {
    const work = `${jar}.tmp-${process.pid}`;
    const built =
      (await run('javac', ['-nowarn', '-cp', classpath, '-d', work, LAUNCHER])) &&
      (await run('jar', ['--create', '--file', `${work}.jar`, '-C', work, '.']));
    try {
      if (built) renameSync(`${work}.jar`, jar);
    } catch {
      // a concurrent run built it first
    } finally {
      rmSync(work, { recursive: true, force: true });
      rmSync(`${work}.jar`, { force: true });
    }
    if (!existsSync(jar)) return ['-cp', classpath, LAUNCHER];
  }
  return ['-cp', `${classpath}:${jar}`, 'Launcher'];
}

/**
 * The server's heap: 512m, or DECOR_MONGO_HEAP ('1536m', '2g'). Every document lives in it (memory
 * backend): 100,000 estimates of the orders benchmark take about 600 MB with their indexes.
 */
function mongoHeap(): string {
  const heap = process.env.DECOR_MONGO_HEAP ?? '512m';
  if (!/^\d+[mg]$/.test(heap)) throw new Error(`DECOR_MONGO_HEAP must be like 512m or 2g, not '${heap}'`);
  return heap;
}

/** Starts mongo-java-server through infra/stack/mongo/Launcher.java. */
export async function startMongo(o: MongoOptions): Promise<RunningProcess> {
  const lib = await ensureJars('mongo', o.log);
  let storage = 'memory';
  if (o.storage.kind === 'h2') {
    mkdirSync(dirname(o.storage.file), { recursive: true });
    storage = `h2:${o.storage.file}`;
  }
  const launcher = await launcherArgs(lib);
  const archive = classDataArchive('mongo', launcher.join(' '));
  const mongo = await startProcess({
    name: 'mongo',
    command: 'java',
    args: [
      ...archive.args,
      `-Xmx${mongoHeap()}`,
      '-XX:+UseSerialGC',
      // The library runs each command on its connection's Netty event loop, and Netty hands new
      // connections to its loops in turn (2 per core by default: 4 here). A new connection landing
      // on a loop busy with another client's long command (a 10,000-document insert, a scan) waited
      // for it — past the services' 2.5 s connect timeout on a loaded machine. With 64 loops a
      // connection shares its loop only after 63 others.
      '-Dio.netty.eventLoopThreads=64',
      // The quick compiler only: C2's compile threads took ~0.5 core for the first minute of load
      // on 2 cores (more than the server's own work); tests, benches and demos never run long enough to repay it.
      '-XX:TieredStopAtLevel=1',
      // The library logs every connection at INFO; keep warnings and errors.
      '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
      // …except a stack trace each time a client drops its connection (every service stop).
      '-Dorg.slf4j.simpleLogger.log.de.bwaldvogel.mongo.wire.MongoExceptionHandler=off',
      ...launcher,
      String(o.port),
      storage,
    ],
    log: o.log,
    quiet: o.quiet,
    ready: /^mongo ready /,
    readyTimeoutMs: 60_000,
    stopGraceMs: 10_000,
    installHint: javaHint(),
  }).catch((err: Error) => {
    archive.discard();
    throw err;
  });
  void mongo.exited.then(() => archive.adopt());
  return mongo;
}
