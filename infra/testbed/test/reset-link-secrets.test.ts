/**
 * The secrets scan for reset and welcome links (beside accounting-sync's for QuickBooks tokens): the
 * gateway, the user service, the notification service and its worker run as their own processes
 * (their logs are files here, at debug level); a customer asks a reset link, opens the page, reads
 * whom it belongs to and sets a password with it, and staff resend a welcome link. Then every log
 * line, every HTTP answer, every event on the user topic and every key of the run in Redis is
 * scanned for the tokens of the links that arrived by e-mail.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createKafka, createRedis, topicFor } from '@decor/kit';
import {
  type CaughtMail,
  deleteRunKeys,
  eventually,
  mailTo,
  RUN_ID,
  serviceEnv,
  TEST_JWT_SECRET,
  topicEvents,
} from '@decor/kit/testing';
import { freePort, type RunningProcess, startProcess, testEndpoints } from '@decor/stack';
import { USER_TOPICS } from '@decor/user';

const ROOT = path.resolve(__dirname, '../../..');
const CUSTOMER = 'customer@decor.example';
const OWNER = 'owner@decor.example';

interface Seen {
  status: number;
  headers: string;
  body: string;
}

describe('reset and welcome links stay out of logs, answers, Kafka and Redis', () => {
  const logDir = mkdtempSync(path.join(tmpdir(), 'decor-reset-secrets-'));
  const processes: RunningProcess[] = [];
  const answers: Seen[] = [];
  let gateway = '';

  const spawn = async (name: string, entry: string, env: Record<string, string>, port: string) => {
    const child = await startProcess({
      name,
      command: process.execPath,
      args: ['--import', 'tsx', '--disable-warning=TimeoutNegativeWarning', path.join(ROOT, entry)],
      cwd: ROOT,
      env,
      logFile: path.join(logDir, `${name}.log`),
      quiet: true,
    });
    processes.push(child);
    await eventually(
      async () =>
        (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok ? true : undefined,
      120_000,
      `${name} ready`,
    );
  };

  beforeAll(async () => {
    const debug = { LOG_LEVEL: 'debug' };
    const user = await serviceEnv('user', debug);
    const notification = await serviceEnv('notification', debug);
    const worker = { ...(await serviceEnv('notification', debug)), WORKER_PORT: String(await freePort()) };
    const gatewayPort = String(await freePort());
    await Promise.all([
      spawn('user', 'services/user/src/main.ts', user, user.PORT as string),
      spawn('notification', 'services/notification/src/main.ts', notification, notification.PORT as string),
      spawn('notification-worker', 'services/notification/src/worker.ts', worker, worker.WORKER_PORT),
    ]);
    await spawn(
      'gateway',
      'gateway/src/main.ts',
      {
        NODE_ENV: 'test',
        DECOR_ALLOW_DEV_SECRETS: '1',
        LOG_LEVEL: 'debug',
        PORT: gatewayPort,
        JWT_SECRET: TEST_JWT_SECRET,
        USER_SERVICE_URL: `http://127.0.0.1:${user.PORT}`,
        NOTIFICATION_SERVICE_URL: `http://127.0.0.1:${notification.PORT}`,
        KAFKA_BROKERS: user.KAFKA_BROKERS as string,
        KAFKA_TOPIC_PREFIX: RUN_ID,
        GATEWAY_CACHE_TTL_MS: '0',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      },
      gatewayPort,
    );
    gateway = `http://127.0.0.1:${gatewayPort}`;
  }, 300_000);

  afterAll(async () => {
    for (const child of processes.reverse()) await child.stop();
    const redis = createRedis(testEndpoints().redisUrl);
    await deleteRunKeys(redis);
    await redis.quit();
  }, 60_000);

  const call = async (url: string, init: { method?: string; token?: string; json?: unknown } = {}) => {
    const res = await fetch(`${gateway}${url}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    const seen = { status: res.status, headers: JSON.stringify([...res.headers]), body: await res.text() };
    answers.push(seen);
    return { ...seen, json: () => JSON.parse(seen.body) };
  };

  /** The token of the newest link e-mailed to `to` after `before` mails. */
  const linkTo = async (to: string, before: number): Promise<string> => {
    const mails = await eventually(
      async () => {
        const all = await mailTo(to);
        return all.length > before ? all : undefined;
      },
      60_000,
      `an e-mail to ${to}`,
    );
    const mail = mails.at(-1) as CaughtMail;
    const match = /\/reset\/([A-Za-z0-9._%-]+)/.exec(mail.Text);
    if (!match?.[1]) throw new Error(`no reset link in: ${mail.Text}`);
    return decodeURIComponent(match[1]);
  };

  it('goes through a reset and a welcome resend, and no log, answer, event or job holds a link', async () => {
    const tokens: string[] = [];
    const customerMails = (await mailTo(CUSTOMER)).length;
    expect((await call('/api/send/reset', { method: 'POST', json: { email: CUSTOMER } })).status).toBe(200);
    const reset = await linkTo(CUSTOMER, customerMails);
    tokens.push(reset);

    await call(`/reset/${encodeURIComponent(reset)}`); // the page the link opens
    const who = await call('/api/auth/resetLink', { token: reset });
    expect(who.status).toBe(200);
    const { id } = who.json().result as { id: string };
    expect(
      (await call(`/api/user/${id}`, { method: 'PUT', token: reset, json: { password: 'from-the-link' } }))
        .status,
    ).toBe(200);

    const owner = await call('/api/auth/user', {
      method: 'POST',
      json: { email: OWNER, password: 'demo1234' },
    });
    expect(owner.status).toBe(200);
    const staff = owner.json().result.token as string;
    const before = (await mailTo(CUSTOMER)).length;
    expect(
      (await call('/api/send/welcomeEmail', { method: 'POST', token: staff, json: { email: CUSTOMER } }))
        .status,
    ).toBe(200);
    const welcome = await linkTo(CUSTOMER, before);
    tokens.push(welcome);
    await call(`/reset/${encodeURIComponent(welcome)}`);

    // Every log line of the four processes.
    await new Promise((resolve) => setTimeout(resolve, 500)); // the last lines reach their files
    const logs = processes.map((p) => readFileSync(path.join(logDir, `${p.name}.log`), 'utf8')).join('\n');
    expect(logs).toContain('/reset/[redacted]'); // the page requests were logged, without their token
    // Every event of the user service (the reset and the welcome request among them).
    const kafka = createKafka({ clientId: 'reset-secrets', brokers: testEndpoints().kafkaBrokers });
    const events = JSON.stringify(
      await topicEvents(
        kafka,
        USER_TOPICS.map((aggregate) => topicFor(RUN_ID, aggregate)),
        (all) => all.some((e) => e.type === 'WelcomeEmailRequested' && e.aggregateId === id),
      ),
    );
    // Every key of this run in Redis (the e-mail jobs and their data).
    const redis = createRedis(testEndpoints().redisUrl);
    let stored = '';
    try {
      for (const key of await redis.keys(`${RUN_ID}:*`)) {
        const type = await redis.type(key);
        if (type === 'hash') stored += JSON.stringify(await redis.hgetall(key));
        else if (type === 'string') stored += await redis.get(key);
        else if (type === 'list') stored += JSON.stringify(await redis.lrange(key, 0, -1));
      }
    } finally {
      await redis.quit();
    }
    expect(stored).toContain('email'); // the jobs were there to scan

    for (const token of tokens) {
      const signature = token.split('.')[2] as string;
      for (const [where, text] of [
        ['logs', logs],
        ['answers', JSON.stringify(answers)],
        ['kafka', events],
        ['redis', stored],
      ] as const) {
        expect({ where, leaked: text.includes(token) || text.includes(signature) }).toEqual({
          where,
          leaked: false,
        });
      }
    }
  }, 300_000);
});
