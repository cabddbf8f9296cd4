import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { CACHE_DIR, classDataArchive, ensureJars, jarVersion, javaHint } from './jars';
import { type RunningProcess, startProcess } from './process';

export interface KafkaOptions {
  /** Broker port (clients); the controller listens on `controllerPort`. */
  port: number;
  controllerPort: number;
  /** Holds server.properties, the log4j config, kafka.log and the log dirs (data/). */
  dir: string;
  log: (line: string) => void;
  /** Start from a copy of a prepared storage template instead of formatting (test runs). */
  useStorageTemplate?: boolean;
  quiet?: boolean;
  portEnvVar?: string;
  /**
   * The port clients are told to connect to (default `port`): a TCP relay's, for outage tests that
   * cut every client connection at the relay while the broker runs on.
   */
  advertisedPort?: number;
}

export const KAFKA_DEFAULT_PARTITIONS = 6;

function serverProperties(o: KafkaOptions, logDir: string): string {
  const settings: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    // A static quorum: the formatted storage does not record the controller's address, so the
    // same storage works whatever port the controller gets (test runs pick free ports).
    'controller.quorum.voters': `1@127.0.0.1:${o.controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${o.port},CONTROLLER://127.0.0.1:${o.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${o.advertisedPort ?? o.port}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': logDir,
    'num.partitions': KAFKA_DEFAULT_PARTITIONS,
    'default.replication.factor': 1,
    'min.insync.replicas': 1,
    'offsets.topic.replication.factor': 1,
    // 50 partitions (the default) make the first consumer group join noticeably slower on a dev box.
    'offsets.topic.num.partitions': 6,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'share.coordinator.state.topic.replication.factor': 1,
    'share.coordinator.state.topic.min.isr': 1,
    'group.initial.rebalance.delay.ms': 0,
    // Threads for a 2-core box (defaults 3, 8, 10): fewer idle threads to wake per request; measured
    // about 15 % less broker CPU per event with six groups reading a topic (2026-11-27).
    'num.network.threads': 1,
    'num.io.threads': 2,
    'background.threads': 2,
    // Our code creates every topic with an explicit partition count; a typo must fail, not create.
    'auto.create.topics.enable': false,
    'delete.topic.enable': true,
  };
  return `${Object.entries(settings)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`;
}

/**
 * Warnings and errors go to kafka.log only: a healthy start logs a harmless ERROR (a controller
 * registration race), so nothing is printed; start failures append the file's tail instead.
 */
function log4jConfig(logFile: string): string {
  return [
    'status = error',
    'appender.file.type = File',
    'appender.file.name = file',
    `appender.file.fileName = ${logFile}`,
    'appender.file.layout.type = PatternLayout',
    'appender.file.layout.pattern = [%d] %p %m (%c)%n',
    'rootLogger.level = warn',
    'rootLogger.appenderRef.file.ref = file',
    '',
  ].join('\n');
}

function javaArgs(lib: string, dir: string, heap: string, classArchive: string[] = []): string[] {
  return [
    ...classArchive,
    `-Xmx${heap}`,
    '-Xms128m',
    '-XX:+UseG1GC',
    '-XX:MaxGCPauseMillis=20',
    // The quick compiler only, as for Mongo (src/mongo.ts): C2 took ~0.4 core in a burst of requests.
    '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${join(dir, 'log4j2.properties')}`,
    `-Dkafka.logs.dir=${dir}`,
    '-cp',
    join(lib, '*'),
  ];
}

/** Runs Kafka's storage tool once (format), with a generated cluster id. */
function formatStorage(lib: string, dir: string, configFile: string): Promise<void> {
  // Kafka cluster ids are 16 random bytes in URL-safe base64 without padding. One starting with '-'
  // reads as an option to the storage tool (Kafka's own Uuid.randomUuid draws again for that too).
  let clusterId = randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
  const args = [
    ...javaArgs(lib, dir, '256m'),
    'kafka.tools.StorageTool',
    'format',
    '--cluster-id',
    clusterId,
    '--config',
    configFile,
    '--ignore-formatted',
  ];
  return new Promise((resolve, reject) => {
    const out: string[] = [];
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => out.push(c.toString()));
    child.stderr.on('data', (c: Buffer) => out.push(c.toString()));
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new Error(`java was not found on PATH: ${javaHint()}`) : err),
    );
    child.once('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`formatting Kafka storage failed (exit ${code}):\n${out.join('').trim()}`)),
    );
  });
}

/** True once the broker answers a metadata request (what every client does first). */
async function brokerAnswers(port: number): Promise<boolean> {
  const admin = new Kafka({
    clientId: 'decor-infra-probe',
    brokers: [`127.0.0.1:${port}`],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 2000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Java's String.hashCode, which Kafka uses to map a group id to an offsets-topic partition. */
function javaHash(text: string): number {
  let hash = 0;
  for (const ch of text) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return hash;
}

const OFFSETS_PARTITIONS = 6; // offsets.topic.num.partitions above

/**
 * The first consumer group on a fresh broker creates __consumer_offsets and finds its coordinator
 * still loading: kafkajs reports that as a consumer crash (and restarts). Describing one group per
 * offsets partition makes the broker create and load them all before anyone counts on it.
 */
async function warmUpGroupCoordinator(port: number): Promise<void> {
  const groups: string[] = [];
  for (let i = 0; groups.length < OFFSETS_PARTITIONS; i++) {
    const id = `decor-infra-warmup-${i}`;
    const partition = Math.abs(javaHash(id) % OFFSETS_PARTITIONS);
    if (!groups.some((g) => Math.abs(javaHash(g) % OFFSETS_PARTITIONS) === partition)) groups.push(id);
  }
  const admin = new Kafka({
    clientId: 'decor-infra-warmup',
    brokers: [`127.0.0.1:${port}`],
    logLevel: logLevel.NOTHING,
    retry: { retries: 30, initialRetryTime: 50, maxRetryTime: 500 },
  }).admin();
  await admin.connect();
  try {
    await admin.describeGroups(groups);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Writes the configs and runs the broker on `logDir`; resolves once clients can use it. */
async function runBroker(lib: string, o: KafkaOptions, logDir: string): Promise<RunningProcess> {
  const logFile = join(o.dir, 'kafka.log');
  const configFile = join(o.dir, 'server.properties');
  mkdirSync(o.dir, { recursive: true });
  writeFileSync(configFile, serverProperties(o, logDir));
  writeFileSync(join(o.dir, 'log4j2.properties'), log4jConfig(logFile));
  if (!existsSync(join(logDir, 'meta.properties'))) await formatStorage(lib, o.dir, configFile);

  const archive = classDataArchive('kafka', lib);
  let kafka: RunningProcess | undefined;
  try {
    kafka = await startProcess({
      name: 'kafka',
      command: 'java',
      args: [...javaArgs(lib, o.dir, '768m', archive.args), 'kafka.Kafka', configFile],
      log: o.log,
      quiet: o.quiet,
      ready: () => brokerAnswers(o.port),
      probeIntervalMs: 200,
      readyTimeoutMs: 90_000,
      stopGraceMs: 15_000,
      installHint: javaHint(),
    });
    void kafka.exited.then(() => archive.adopt());
    await warmUpGroupCoordinator(o.port).catch((err: Error) => {
      throw new Error(`Kafka answered but its group coordinator did not come up: ${err.message}`);
    });
    return kafka;
  } catch (err) {
    await kafka?.stop();
    archive.discard();
    const logTail = tail(logFile, 20);
    if (err instanceof Error && logTail) err.message += `\n--- tail of ${logFile} ---\n${logTail}`;
    throw err;
  }
}

/**
 * Storage that was formatted, started once (creating __consumer_offsets) and stopped, kept under
 * infra/.cache and copied into each test run's fresh data dir. Formatting and creating the offsets
 * topic cost a JVM start and a second or two that every `npm test` would otherwise pay.
 */
async function storageTemplate(lib: string, o: KafkaOptions): Promise<string> {
  const template = join(CACHE_DIR, 'kafka', `storage-${jarVersion('kafka')}`);
  if (existsSync(join(template, 'meta.properties'))) return template;
  o.log('preparing a Kafka storage template for test runs (first run only)…');
  const work = `${template}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  const broker = await runBroker(lib, { ...o, dir: `${work}-run`, quiet: true }, work);
  await broker.stop();
  rmSync(`${work}-run`, { recursive: true, force: true });
  try {
    renameSync(work, template);
  } catch {
    rmSync(work, { recursive: true, force: true }); // another run made it first
  }
  return template;
}

/** Starts a single-node KRaft broker+controller; resolves when it accepts admin requests. */
export async function startKafka(o: KafkaOptions): Promise<RunningProcess> {
  const lib = await ensureJars('kafka', o.log);
  const logDir = join(o.dir, 'data');
  if (o.useStorageTemplate && !existsSync(join(logDir, 'meta.properties'))) {
    cpSync(await storageTemplate(lib, o), logDir, { recursive: true });
  }
  return runBroker(lib, o, logDir);
}
