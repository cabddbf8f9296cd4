/**
 * Issue 16, "Outages": through the gateway, a service whose Redis or MongoDB is out of reach answers
 * 503 with a message within the bound (Redis 2 s, MongoDB a few s), nothing is lost or doubled, and
 * it answers 200 again once the server is back. The servers are cut at relays in front of the
 * shared test servers (the machine's Redis is never stopped).
 */
import { randomUUID } from 'node:crypto';
import { UNAVAILABLE_MESSAGES } from '@decor/contracts';
import { buildGateway, loadGatewayConfig } from '@decor/gateway';
import { gatewayTestEnv } from '@decor/gateway/testing';
import type { RunningService, ServiceApp, StartedService } from '@decor/kit';
import { startService, startWorkers } from '@decor/kit';
import {
  type Answer,
  call,
  deleteRunKeys,
  eventually,
  mailTo,
  RUN_ID,
  serviceEnv,
  type TcpRelay,
  tcpRelay,
} from '@decor/kit/testing';
import {
  loadNotificationConfig,
  type NotificationContext,
  notificationService,
  notificationWorkers,
} from '@decor/notification';
import { testEndpoints } from '@decor/stack';
import { loadUserConfig, type UserContext, userService } from '@decor/user';

const REDIS_BOUND_MS = 2000;
const MONGO_BOUND_MS = 4000;
const STAFF = `staff-outage-${RUN_ID}@decor.example`;
const CUSTOMER = 'customer@decor.example';
const PASSWORD = 'demo1234';
const noExit = { exit: () => {} };

let redisRelay: TcpRelay;
let mongoRelay: TcpRelay;
let user: StartedService<UserContext>;
let notification: StartedService<NotificationContext>;
let worker: RunningService;
let gateway: ServiceApp;
let api: string;

beforeAll(async () => {
  const e = testEndpoints();
  const redis = new URL(e.redisUrl);
  redisRelay = await tcpRelay({ host: redis.hostname, port: Number(redis.port || 6379) });
  const mongo = new URL(e.mongoUrl);
  mongoRelay = await tcpRelay({ host: mongo.hostname, port: Number(mongo.port) });

  const userEnv = await serviceEnv('user', { MONGO_URL: `mongodb://127.0.0.1:${mongoRelay.port}` });
  user = await startService(userService(loadUserConfig(userEnv)), noExit);
  const notificationEnv = { STAFF_EMAIL: STAFF, CONTACT_MAX_PER_ADDRESS: '100' };
  notification = await startService(
    notificationService(
      loadNotificationConfig(
        await serviceEnv('notification', {
          ...notificationEnv,
          REDIS_URL: `redis://127.0.0.1:${redisRelay.port}`,
        }),
      ),
    ),
    noExit,
  );
  // The worker reads the queue straight from Redis: only the service's connection is cut.
  worker = await startWorkers(
    notificationWorkers(loadNotificationConfig(await serviceEnv('notification', notificationEnv))),
    noExit,
  );
  gateway = await buildGateway(
    loadGatewayConfig({
      ...gatewayTestEnv(userEnv),
      REDIS_URL: e.redisUrl,
      USER_SERVICE_URL: user.url,
      NOTIFICATION_SERVICE_URL: notification.url,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      GATEWAY_CACHE_TTL_MS: '0',
    }),
    { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' },
  );
  api = `${await gateway.listen({ port: 0, host: '127.0.0.1' })}/api`;
}, 180_000);

afterAll(async () => {
  await redisRelay?.restore();
  await mongoRelay?.restore();
  await gateway?.close();
  await worker?.shutdown('test over');
  if (notification) {
    await deleteRunKeys(notification.ctx.redis).catch(() => {});
    await notification.ctx.connection.dropDatabase().catch(() => {});
    await notification.shutdown('test over');
  }
  if (user) {
    await user.ctx.connection.dropDatabase().catch(() => {});
    await user.shutdown('test over');
  }
  await redisRelay?.close();
  await mongoRelay?.close();
});

async function timed(path: string, json: unknown): Promise<Answer & { ms: number }> {
  const started = Date.now();
  const answer = await call(api, path, { method: 'POST', json });
  return { ...answer, ms: Date.now() - started };
}

/** Sends until the answer is 200 (the server is back), at most 30 s. */
async function answersAgain(path: string, json: () => unknown): Promise<Answer> {
  return eventually(
    async () => {
      const answer = await call(api, path, { method: 'POST', json: json() });
      return answer.status === 200 ? answer : undefined;
    },
    30_000,
    `200 from ${path}`,
  );
}

const enquiry = (name: string) => ({
  name,
  email: `visitor-${randomUUID().slice(0, 8)}-${RUN_ID}@decor.example`,
  message: 'Do you rent gold chargers?',
});
const enquiriesFrom = async (name: string) =>
  (await mailTo(STAFF)).filter((m) => m.Subject === `Website enquiry from ${name}`);

describe.each(['hang', 'refuse'] as const)('Redis out of reach (%s)', (mode) => {
  it(`the contact form answers 503 with a message within ${REDIS_BOUND_MS} ms, and sends once when Redis is back`, async () => {
    await redisRelay.cut(mode);
    const refused = `Refused ${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 3; i++) {
      const answer = await timed('/send/info', enquiry(refused));
      expect(answer).toMatchObject({ status: 503, body: { message: UNAVAILABLE_MESSAGES.jobs } });
      expect(answer.ms).toBeLessThan(REDIS_BOUND_MS);
    }
    await redisRelay.restore();
    const accepted = `Accepted ${randomUUID().slice(0, 8)}`;
    const again = await answersAgain('/send/info', () => enquiry(accepted));
    expect(again.body).toEqual({ result: { queued: true } });
    await eventually(
      async () => ((await enquiriesFrom(accepted)).length > 0 ? true : undefined),
      30_000,
      'the mail',
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect(await enquiriesFrom(accepted)).toHaveLength(1);
    // A refused message was not queued behind the visitor's back.
    expect(await enquiriesFrom(refused)).toHaveLength(0);
  }, 60_000);
});

it(`a sign-in while MongoDB is down answers 503 with a message within ${MONGO_BOUND_MS} ms, and 200 once it is back`, async () => {
  const credentials = { email: CUSTOMER, password: PASSWORD };
  expect((await call(api, '/auth/user', { method: 'POST', json: credentials })).status).toBe(200);
  await mongoRelay.cut('refuse');
  for (let i = 0; i < 2; i++) {
    const answer = await timed('/auth/user', credentials);
    expect(answer).toMatchObject({ status: 503, body: { message: UNAVAILABLE_MESSAGES.database } });
    expect(answer.ms).toBeLessThan(MONGO_BOUND_MS);
  }
  await mongoRelay.restore();
  const again = await answersAgain('/auth/user', () => credentials);
  expect(again.body.result.permissions).toBe('customer');
}, 60_000);
