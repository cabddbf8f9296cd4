/**
 * A local trace viewer for `npm start -- --tracing` (issue 32): Zipkin's server, one runnable jar
 * from Maven Central fetched once into infra/.cache/zipkin (as Kafka's jars are), spans kept in
 * memory. Every process sends its spans to `spansUrl` (TRACING_ZIPKIN_URL); the UI is at `url`.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, javaHint, runMaven } from './jars';
import { type RunningProcess, startProcess } from './process';

export const ZIPKIN_VERSION = '3.5.1';
const ARTIFACT = `io.zipkin:zipkin-server:${ZIPKIN_VERSION}:jar:exec`;
const JAR = `zipkin-server-${ZIPKIN_VERSION}-exec.jar`;

/** infra/.cache/zipkin/zipkin-server-<version>-exec.jar, fetched by Maven on first use (131 MB). */
export async function ensureZipkinJar(log: (line: string) => void): Promise<string> {
  const dir = join(CACHE_DIR, 'zipkin');
  const jar = join(dir, JAR);
  if (existsSync(jar)) return jar;
  log(`fetching Zipkin's server ${ZIPKIN_VERSION} (131 MB, first --tracing run only)…`);
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  try {
    // `copy` without a pom: the artifact alone, into a folder renamed into place once complete.
    const goal = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy';
    await runMaven([
      '-B',
      '-q',
      '-Dstyle.color=never',
      `-Dartifact=${ARTIFACT}`,
      `-DoutputDirectory=${work}`,
      goal,
    ]);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(jar)) renameSync(join(work, JAR), jar);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return jar;
}

export interface ZipkinHandle {
  /** The UI: open a trace here (search by trace id, the `trace_id` of a log line). */
  url: string;
  /** Where processes send spans (Zipkin's v2 API). */
  spansUrl: string;
  process: RunningProcess;
}

export async function startZipkin(o: {
  port: number;
  log: (line: string) => void;
  logFile?: string;
  quiet?: boolean;
  signal?: AbortSignal;
}): Promise<ZipkinHandle> {
  const jar = await ensureZipkinJar(o.log);
  const base = `http://127.0.0.1:${o.port}`;
  const proc = await startProcess({
    name: 'zipkin',
    command: 'java',
    // Small heap and a bounded span store: a viewer beside the product, not a production collector.
    args: ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-jar', jar],
    env: {
      QUERY_PORT: String(o.port),
      STORAGE_TYPE: 'mem',
      MEM_MAX_SPANS: '200000',
      SELF_TRACING_ENABLED: 'false',
    },
    log: o.log,
    logFile: o.logFile,
    quiet: o.quiet ?? true,
    ready: async () => (await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) })).ok,
    probeIntervalMs: 250,
    readyTimeoutMs: 90_000,
    stopGraceMs: 10_000,
    installHint: javaHint(),
    hint: 'ZIPKIN_PORT moves it',
    signal: o.signal,
  });
  return { url: `${base}/zipkin/`, spansUrl: `${base}/api/v2/spans`, process: proc };
}
