import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PAYMENTS_DEV_KEYS, startPaymentsEmulator } from '@decor/payments-emulator';
import { DEMO_REALM_ID as QBO_DEMO_REALM_ID, QBO_DEV_CLIENT, startQboEmulator } from '@decor/qbo-emulator';
import type { InfraEndpoints } from './endpoints';
import { INFRA_DIR, STACK_DIR } from './jars';
import { KAFKA_DEFAULT_PARTITIONS, startKafka } from './kafka';
import { startMailCatcher } from './mail';
import { startMongo } from './mongo';
import { assertPortFree, freePort, PortTakenError, portFromEnv } from './ports';
import { startProcess } from './process';
import { useOrStartRedis } from './redis';
import { S3_ACCESS_KEY_ID, S3_DEFAULT_BUCKET, S3_REGION, S3_SECRET_ACCESS_KEY, startS3Server } from './s3';

export interface StartInfraOptions {
  /** dev: fixed ports (env overridable), data kept in dataDir. test: free ports, fresh temp data, memory Mongo. */
  mode: 'dev' | 'test';
  /** dev default: $DECOR_DATA_DIR or infra/.data. test default: a fresh temp dir, removed on stop. */
  dataDir?: string;
  /** Status and child output lines; default stdout. */
  log?: (line: string) => void;
  /**
   * dev: where the payments emulator sends its signed webhooks (the gateway's /api/payments/webhook,
   * with PAYMENTS_DEV_KEYS.webhookSecret); default $PAYMENTS_WEBHOOK_URL, else none. Tests add their own.
   */
  paymentsWebhookUrl?: string;
}

export interface InfraHandle {
  endpoints: InfraEndpoints;
  stop(): Promise<void>;
}

/** The dev ports and the env variables that move them. Defaults avoid the machine's own services. */
export const DEV_PORTS = {
  kafka: { env: 'KAFKA_PORT', port: 19092 },
  kafkaController: { env: 'KAFKA_CONTROLLER_PORT', port: 19093 },
  mongo: { env: 'MONGO_PORT', port: 27027 },
  s3: { env: 'S3_PORT', port: 4569 },
  smtp: { env: 'SMTP_PORT', port: 2525 },
  mailApi: { env: 'MAIL_API_PORT', port: 8025 },
  qbo: { env: 'QBO_EMULATOR_PORT', port: 4580 },
  payments: { env: 'PAYMENTS_EMULATOR_PORT', port: 4590 },
} as const;
type PortName = keyof typeof DEV_PORTS;

async function devPorts(): Promise<Record<PortName, number>> {
  const names = Object.keys(DEV_PORTS) as PortName[];
  const ports = Object.fromEntries(names.map((n) => [n, portFromEnv(DEV_PORTS[n].env, DEV_PORTS[n].port)]));
  const checks = await Promise.allSettled(
    names.map((n) => assertPortFree(ports[n] as number, n, DEV_PORTS[n].env)),
  );
  const taken = checks.flatMap((c) => (c.status === 'rejected' ? [c.reason as Error] : []));
  if (taken.length === 1) throw taken[0];
  if (taken.length > 1) throw new Error(taken.map((e) => e.message).join('\n'));
  return ports as Record<PortName, number>;
}

/** Test runs take free ports so they never collide with a running `npm start` (S3/mail bind port 0). */
async function testPorts(): Promise<Record<PortName, number>> {
  const [kafka, kafkaController, mongo] = await Promise.all([freePort(), freePort(), freePort()]);
  const ports = { kafka, kafkaController, mongo, s3: 0, smtp: 0, mailApi: 0, qbo: 0, payments: 0 };
  return ports as Record<PortName, number>;
}

interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Starts Kafka, MongoDB, Redis (or uses the machine's), S3 and the mail catcher in parallel and
 * resolves when every one answers; prints one status line per server. If any fails, the others
 * are stopped and the error names the cause.
 */
export async function startInfra(opts: StartInfraOptions): Promise<InfraHandle> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const test = opts.mode === 'test';
  const dataDir =
    opts.dataDir ??
    (test
      ? mkdtempSync(join(tmpdir(), 'decor-infra-'))
      : (process.env.DECOR_DATA_DIR ?? join(INFRA_DIR, '.data')));
  const ownsDataDir = test && opts.dataDir === undefined;
  const shown = (path: string) => (path.startsWith(INFRA_DIR) ? relative(join(INFRA_DIR, '..'), path) : path);

  let ports: Record<PortName, number>;
  try {
    ports = test ? await testPorts() : await devPorts();
  } catch (err) {
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  const running: Stoppable[] = [];
  const stopAll = async () => {
    await Promise.allSettled(running.map((r) => r.stop()));
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const ready = (name: string, address: string, detail: string, since: number) =>
    log(`✓ ${name.padEnd(10)} ${address} (${detail}) ${((Date.now() - since) / 1000).toFixed(1)} s`);
  const t0 = Date.now();

  const kafka = startKafka({
    port: ports.kafka,
    controllerPort: ports.kafkaController,
    dir: join(dataDir, 'kafka'),
    log,
    quiet: test,
    useStorageTemplate: test,
  }).then((p) => {
    running.push(p);
    ready('kafka', `127.0.0.1:${ports.kafka}`, `KRaft, ${KAFKA_DEFAULT_PARTITIONS} partitions default`, t0);
    return [`127.0.0.1:${ports.kafka}`];
  });

  const h2File = join(dataDir, 'mongo', 'decor.mv.db');
  const mongo = startMongo({
    port: ports.mongo,
    storage: test ? { kind: 'memory' } : { kind: 'h2', file: h2File },
    log,
    quiet: test,
  }).then((p) => {
    running.push(p);
    const url = `mongodb://127.0.0.1:${ports.mongo}`;
    ready('mongo', url, `mongo-java-server, ${test ? 'memory' : `H2 ${shown(h2File)}`}`, t0);
    return url;
  });

  const redis = useOrStartRedis(log, test).then((r) => {
    if (r.process) running.push(r.process);
    ready('redis', r.url, r.process ? 'own redis-server, no persistence' : "the machine's server", t0);
    return r.url;
  });

  const bucket = process.env.S3_BUCKET ?? S3_DEFAULT_BUCKET;
  const s3Dir = join(dataDir, 's3');
  const s3 = (async () => {
    if (test) {
      const server = await startS3Server({ port: 0, directory: s3Dir, bucket });
      running.push({ stop: server.close });
      return server.endpoint;
    }
    const options = { port: ports.s3, directory: s3Dir, bucket };
    running.push(await startNodeServer('s3', options, log));
    return `http://127.0.0.1:${ports.s3}`;
  })().then((endpoint) => {
    ready('s3', endpoint, `s3rver, bucket ${bucket}, files in ${shown(s3Dir)}`, t0);
    return endpoint;
  });

  const mail = (async () => {
    if (test) {
      const catcher = await startMailCatcher({ smtpPort: 0, apiPort: 0 });
      running.push({ stop: catcher.close });
      return { smtpPort: catcher.smtpPort, apiPort: catcher.apiPort };
    }
    const options = {
      smtpPort: ports.smtp,
      apiPort: ports.mailApi,
      storeFile: join(dataDir, 'mail', 'messages.json'),
      ignoreDuplicateIds: true,
    };
    running.push(await startNodeServer('mail', options, log));
    return { smtpPort: ports.smtp, apiPort: ports.mailApi };
  })().then((m) => {
    ready('mail', `smtp 127.0.0.1:${m.smtpPort}`, `mail catcher, inbox at http://127.0.0.1:${m.apiPort}`, t0);
    return m;
  });

  // The QuickBooks emulator e-mails sent documents to the mail catcher, so it starts after it.
  const qboFile = join(dataDir, 'qbo', 'company.json');
  const qbo = mail
    .then(async (m) => {
      const options = {
        port: ports.qbo,
        smtp: { host: '127.0.0.1', port: m.smtpPort },
        ...QBO_DEV_CLIENT,
        ...(test ? {} : { dataFile: qboFile }),
      };
      if (test) {
        const emulator = await startQboEmulator(options);
        running.push({ stop: emulator.close });
        return emulator.url;
      }
      running.push(await startNodeServer('qbo', options, log));
      return `http://127.0.0.1:${ports.qbo}`;
    })
    .then((url) => {
      ready('qbo', url, `QuickBooks emulator, ${test ? 'memory' : shown(qboFile)}`, t0);
      return url;
    });

  // The payments emulator (Stripe's API); in dev its webhooks go to the gateway (paymentsWebhookUrl).
  const paymentsFile = join(dataDir, 'payments', 'payments.json');
  const webhookUrl = test ? undefined : (opts.paymentsWebhookUrl ?? process.env.PAYMENTS_WEBHOOK_URL);
  const payments = (async () => {
    const options = {
      port: ports.payments,
      ...(test ? {} : { dataFile: paymentsFile }),
      webhookEndpoints: webhookUrl ? [{ url: webhookUrl, secret: PAYMENTS_DEV_KEYS.webhookSecret }] : [],
    };
    if (test) {
      const emulator = await startPaymentsEmulator(options);
      running.push({ stop: emulator.close });
      return emulator.url;
    }
    running.push(await startNodeServer('payments', options, log));
    return `http://127.0.0.1:${ports.payments}`;
  })().then((url) => {
    const where = test ? 'memory' : shown(paymentsFile);
    ready(
      'payments',
      url,
      `payments emulator, ${where}${webhookUrl ? `, webhooks to ${webhookUrl}` : ''}`,
      t0,
    );
    return url;
  });

  const results = await Promise.allSettled([kafka, mongo, redis, s3, mail, qbo, payments]);
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failures.length > 0) {
    await stopAll();
    if (failures.length === 1) throw failures[0];
    throw new Error(
      `${failures.length} servers could not start:\n${[...new Set(failures.map((f) => `• ${f.message}`))].join('\n')}`,
    );
  }

  const [kafkaBrokers, mongoUrl, redisUrl, s3Endpoint, mailPorts, qboUrl, paymentsUrl] = await Promise.all([
    kafka,
    mongo,
    redis,
    s3,
    mail,
    qbo,
    payments,
  ]);
  let stopping: Promise<void> | undefined;
  return {
    endpoints: {
      mongoUrl,
      kafkaBrokers,
      redisUrl,
      s3: {
        endpoint: s3Endpoint,
        region: S3_REGION,
        bucket,
        accessKeyId: S3_ACCESS_KEY_ID,
        secretAccessKey: S3_SECRET_ACCESS_KEY,
      },
      smtp: { host: '127.0.0.1', port: mailPorts.smtpPort },
      mailApiUrl: `http://127.0.0.1:${mailPorts.apiPort}`,
      qbo: { url: qboUrl, ...QBO_DEV_CLIENT, realmId: QBO_DEMO_REALM_ID },
      payments: { url: paymentsUrl, ...PAYMENTS_DEV_KEYS },
    },
    stop: () => {
      stopping ??= stopAll();
      return stopping;
    },
  };
}

/** S3, the mail catcher and the two emulators as their own Node processes for `npm start` (see serve.ts). */
function startNodeServer(
  kind: 's3' | 'mail' | 'qbo' | 'payments',
  options: object,
  log: (line: string) => void,
) {
  return startProcess({
    name: kind,
    command: process.execPath,
    args: ['--import', 'tsx', join(STACK_DIR, 'src', 'serve.ts'), kind, JSON.stringify(options)],
    cwd: join(INFRA_DIR, '..'),
    log,
    ready: /^ready /,
    // Started beside Kafka's and Mongo's JVMs and the builds: on a busy 2-core machine four tsx
    // starts at once took over 30 s (2026-12-02, load average 27).
    readyTimeoutMs: 90_000,
    stopGraceMs: 5_000,
  });
}

export { PortTakenError };
