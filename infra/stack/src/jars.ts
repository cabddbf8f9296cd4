import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** infra/stack/ — the poms, the Mongo launcher and serve.ts live under it. */
export const STACK_DIR = join(__dirname, '..');
/** infra/ — npm start's data (.data) and this cache (.cache) sit here, beside the infra workspaces. */
export const INFRA_DIR = join(STACK_DIR, '..');
/** Jars, class-data archives and the Kafka storage template (DECOR_CACHE_DIR moves it, e.g. for a CI cache). */
export const CACHE_DIR = process.env.DECOR_CACHE_DIR ?? join(INFRA_DIR, '.cache');

export type JarSet = 'kafka' | 'mongo';

/** A short hash of infra/stack/<set>/pom.xml: names the jar folder and everything derived from it. */
export function jarVersion(set: JarSet): string {
  return createHash('sha256')
    .update(readFileSync(join(STACK_DIR, set, 'pom.xml')))
    .digest('hex')
    .slice(0, 12);
}

/**
 * infra/.cache/<set>/lib-<pom hash>, filled by Maven from infra/stack/<set>/pom.xml. Named by the pom's
 * hash so a changed pom gets a new folder while running JVMs (other test runs) keep the old one.
 */
export function libDir(set: JarSet): string {
  return join(CACHE_DIR, set, `lib-${jarVersion(set)}`);
}

// One Maven at a time: two resolving into the same ~/.m2 on a fresh machine can trip over each other.
let mavenQueue: Promise<unknown> = Promise.resolve();

/**
 * Makes sure the jars of `set` are in their cache folder, running Maven on first use (or after
 * the pom changed). Maven fills a temporary folder that is renamed into place only once complete,
 * so an interrupted download is retried and concurrent runs never see half a folder.
 */
export function ensureJars(set: JarSet, log: (line: string) => void): Promise<string> {
  const dir = libDir(set);
  if (existsSync(join(dir, '.complete'))) return Promise.resolve(dir);
  const run = mavenQueue.then(async () => {
    if (existsSync(join(dir, '.complete'))) return dir;
    log(`fetching ${set === 'kafka' ? 'Kafka' : 'mongo-java-server'} jars (first run only)…`);
    const started = Date.now();
    const work = `${dir}.tmp-${process.pid}`;
    rmSync(work, { recursive: true, force: true });
    const pom = join(STACK_DIR, set, 'pom.xml');
    try {
      // The full plugin coordinates: a bare `dependency:` prefix needs a metadata download every time.
      const goal = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies';
      await runMaven(['-B', '-q', '-Dstyle.color=never', '-f', pom, `-Dlib.dir=${work}`, goal]);
      writeFileSync(join(work, '.complete'), `${new Date().toISOString()}\n`);
      renameSync(work, dir);
    } catch (err) {
      rmSync(work, { recursive: true, force: true });
      if (!existsSync(join(dir, '.complete'))) throw err; // else a concurrent run finished first
    }
    log(`${set} jars ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${dir})`);
    return dir;
  });
  mavenQueue = run.catch(() => undefined);
  return run;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const UNREACHABLE =
  /Could not transfer|Could not resolve|UnknownHost|Unknown host|Connection refused|Connection timed out|Network is unreachable|No route to host|Temporary failure in name resolution/i;

export function runMaven(args: string[]): Promise<void> {
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
      const text = out.join('').replace(ANSI, '');
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

export interface ClassDataArchive {
  args: string[];
  /** After a good run's JVM has exited: move its freshly written archive into place. */
  adopt(): void;
  /** After a failed start: drop what that JVM wrote (it saw too few classes to be worth keeping). */
  discard(): void;
}

/**
 * JVM flags for an application class-data archive (AppCDS). The first start records the classes
 * it loaded into the archive when the JVM exits; later starts map them instead of loading and
 * verifying thousands of classes again, which roughly halves Kafka's start-up CPU.
 */
export function classDataArchive(set: JarSet, classpath: string): ClassDataArchive {
  const version = jarVersion(set);
  // The archive is only valid for the same JDK and class path.
  const javaId = createHash('sha256').update(`${javaIdentity()}\n${classpath}`).digest('hex').slice(0, 8);
  const archive = join(CACHE_DIR, set, `classes-${version}-${javaId}.jsa`);
  const quiet = '-Xlog:cds*=off'; // dump warnings about old class versions are noise
  if (existsSync(archive)) {
    return { args: [`-XX:SharedArchiveFile=${archive}`, quiet], adopt() {}, discard() {} };
  }
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
    discard() {
      rmSync(pending, { force: true });
    },
  };
}
