import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** infra/ — the poms, the launcher and the jar cache live under it. */
export const INFRA_DIR = join(__dirname, '..');
export const CACHE_DIR = join(INFRA_DIR, '.cache');

export type JarSet = 'kafka' | 'mongo';

/** infra/.cache/<set>/lib, filled by Maven from infra/<set>/pom.xml. */
export function libDir(set: JarSet): string {
  return join(CACHE_DIR, set, 'lib');
}

function pomHash(set: JarSet): string {
  return createHash('sha256')
    .update(readFileSync(join(INFRA_DIR, set, 'pom.xml')))
    .digest('hex');
}

// One Maven at a time: two resolving into the same ~/.m2 on a fresh machine can trip over each other.
let mavenQueue: Promise<unknown> = Promise.resolve();

/**
 * Makes sure the jars of `set` are in its cache folder, running Maven on first use (or after the
 * pom changed). A marker holding the pom's hash is written only after Maven succeeded, so an
 * interrupted download is retried.
 */
export function ensureJars(set: JarSet, log: (line: string) => void): Promise<string> {
  const dir = libDir(set);
  const marker = join(dir, '.complete');
  const hash = pomHash(set);
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === hash) return Promise.resolve(dir);
  const run = mavenQueue.then(async () => {
    log(`fetching ${set === 'kafka' ? 'Kafka' : 'mongo-java-server'} jars (first run only)…`);
    const started = Date.now();
    rmSync(dir, { recursive: true, force: true });
    await runMaven(['-B', '-q', '-f', join(INFRA_DIR, set, 'pom.xml'), 'dependency:copy-dependencies']);
    writeFileSync(marker, `${hash}\n`);
    log(`${set} jars ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${dir})`);
    return dir;
  });
  mavenQueue = run.catch(() => undefined);
  return run;
}

const UNREACHABLE =
  /Could not transfer|Could not resolve|UnknownHost|Unknown host|Connection refused|Connection timed out|Network is unreachable|No route to host|Temporary failure in name resolution/i;

function runMaven(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const out: string[] = [];
    const child = spawn('mvn', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer) => {
      out.push(chunk.toString());
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    // Maven can sit on a dead connection for a long time; never hang silently.
    const timer = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        err.code === 'ENOENT'
          ? new Error(
              'Maven (`mvn`) is not installed; it fetches the Kafka and MongoDB jars once. Install it: apt-get install maven',
            )
          : err,
      );
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve();
      const text = out.join(''); // -B: no colour codes
      const tail = text.trim().split('\n').slice(-15).join('\n');
      const cause = UNREACHABLE.test(text)
        ? 'Maven Central (https://repo.maven.apache.org) is unreachable or refused the download'
        : signal
          ? `mvn was killed (${signal}) after 10 minutes`
          : `mvn exited with code ${code}`;
      reject(new Error(`could not fetch jars: ${cause}\n--- mvn output ---\n${tail}`));
    });
  });
}

/** What to do when `java` is missing (Kafka and the MongoDB launcher both need it). */
export function javaHint(): string {
  return 'install a Java 17+ JDK: apt-get install openjdk-17-jdk-headless';
}

/** The real path and mtime of the `java` on PATH, so a JDK upgrade invalidates old class archives. */
function javaIdentity(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'java');
    try {
      const real = realpathSync(candidate);
      return `${real}@${statSync(real).mtimeMs}`;
    } catch {
      // not in this PATH entry
    }
  }
  return 'no-java';
}

/**
 * JVM flags for an application class-data archive (AppCDS). The first start records the classes
 * it loaded into the archive when the JVM exits; later starts map them instead of loading and
 * verifying thousands of classes again, which roughly halves Kafka's start-up CPU.
 * Call `adopt()` after the JVM has exited to move a freshly written archive into place.
 */
export function classDataArchive(set: JarSet): { args: string[]; adopt(): void } {
  const marker = join(libDir(set), '.complete');
  const version = existsSync(marker) ? readFileSync(marker, 'utf8').trim().slice(0, 12) : 'unknown';
  const javaId = createHash('sha256').update(javaIdentity()).digest('hex').slice(0, 8);
  const archive = join(CACHE_DIR, set, `classes-${version}-${javaId}.jsa`);
  const quiet = '-Xlog:cds*=off'; // dump warnings about old class versions are noise
  if (existsSync(archive)) return { args: [`-XX:SharedArchiveFile=${archive}`, quiet], adopt() {} };
  const pending = `${archive}.${process.pid}-${Date.now()}`;
  return {
    args: [`-XX:ArchiveClassesAtExit=${pending}`, quiet],
    adopt() {
      try {
        if (existsSync(pending) && statSync(pending).size > 0) renameSync(pending, archive);
      } catch {
        rmSync(pending, { force: true });
      }
    },
  };
}
