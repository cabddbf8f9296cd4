/**
 * No QuickBooks token in any HTTP answer, log line or Kafka message: the service runs as its own
 * process (its log is a file here, at debug level), goes through connect, renewals, a forced
 * refresh after QuickBooks expired the token, syncs and failures; then everything is scanned for
 * every token it ever held (read back from its database and decrypted).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompanyUpserted, EstimateSubmitted, UserCreated } from '@decor/contracts';
import { connectMongo, createKafka, createPublisher, newEvent, publishEnvelopes } from '@decor/kit';
import { type Answer, eventually, RUN_ID, serviceEnv, testEndpoints } from '@decor/kit/testing';
import { createSigner } from 'fast-jwt';
import type { Kafka } from 'kafkajs';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { loadAccountingSyncConfig } from '../src/config';
import { tokenCipher } from '../src/qbo/token-cipher';
import { CONNECTION_ID, qboConnectionModel } from '../src/store/connection-model';
import { consent, emulatorCall, newId, newRealm, qboEnv, request } from './support';

const ROOT = join(__dirname, '..', '..', '..');

describe('QuickBooks tokens stay inside the accounting-sync service', () => {
  let child: ChildProcess;
  let url: string;
  let logFile: string;
  let connection: Connection;
  let kafka: Kafka;
  const answers: Answer[] = [];
  const tokens = new Set<string>();
  let env: Record<string, string>;

  beforeAll(async () => {
    env = await serviceEnv(
      'accounting-sync',
      qboEnv({ LOG_LEVEL: 'debug', KAFKA_TOPIC_PREFIX: `${RUN_ID}s` }),
    );
    url = `http://127.0.0.1:${env.PORT}`;
    logFile = join(mkdtempSync(join(tmpdir(), 'decor-secrets-')), 'accounting-sync.log');
    const log = createWriteStream(logFile);
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'services/accounting-sync/src/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    await eventually(
      async () => ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok ? true : undefined),
      60_000,
      'the service process',
    );
    connection = await connectMongo(
      env.MONGO_URL as string,
      env.MONGO_DB as string,
      pino({ level: 'silent' }),
    );
    kafka = createKafka({ clientId: 'secrets-test', brokers: testEndpoints().kafkaBrokers });
  }, 90_000);

  afterAll(async () => {
    child?.kill('SIGTERM');
    await new Promise((r) => child?.once('exit', r));
    await connection?.dropDatabase();
    await connection?.close();
  });

  const sign = createSigner({ key: 'test-secret-shared-by-gateway-and-services', expiresIn: 600_000 });
  const staff = sign({
    sub: newId(),
    permissions: 'superadmin',
    email: 'owner@decor.example',
    iss: 'decor',
    aud: 'decor-session',
  });
  const call = async (path: string, init: Parameters<typeof request>[2] = {}) => {
    const answer = await request(url, path, { token: staff, ...init });
    answers.push(answer);
    return answer;
  };
  const remember = async () => {
    const doc = await qboConnectionModel(connection).findById(CONNECTION_ID).lean();
    const cipher = tokenCipher(loadAccountingSyncConfig(env).QBO_TOKEN_KEY);
    for (const sealed of [doc?.accessToken, doc?.refreshToken])
      if (sealed) tokens.add(cipher.decrypt(sealed));
  };

  it('goes through connect, renewals, syncs and faults, and no answer, log line or event holds a token', async () => {
    const realmId = await newRealm('Secrets Co');
    const start = await call('/qbo/connect');
    const back = await consent(start.body.result.url, realmId);
    expect((await call(`/auth/accessToken${back.search}`)).status).toBe(200);
    await remember();
    expect((await call('/qbo/get/renewToken')).status).toBe(200);
    await remember();

    const producer = createPublisher(kafka);
    await producer.connect();
    const companyId = newId();
    const userId = newId();
    const estimateId = newId();
    await publishEnvelopes(producer.producer, `${RUN_ID}s`, [
      newEvent(CompanyUpserted, {
        aggregateId: companyId,
        correlationId: 'c',
        payload: { companyId, name: 'Vault Events', displayName: 'Vault Events' },
      }),
      newEvent(UserCreated, {
        aggregateId: userId,
        correlationId: 'c',
        payload: {
          userId,
          email: 'vault@decor.example',
          displayName: 'Val Vault',
          permissions: 'customer',
          companyId,
        },
      }),
      newEvent(EstimateSubmitted, {
        aggregateId: estimateId,
        correlationId: 'c',
        payload: {
          estimateId,
          docNumber: '7001',
          status: 'Pending',
          userId,
          cartId: newId(),
          customer: { email: 'not-an-address', displayName: 'Val Vault' },
          details: { groupName: 'Vault', eventDate: '2027-01-01', location: 'Vault' },
          lines: [],
          subtotalCents: 0,
          truckingCents: 0,
          taxCents: 0,
          totalCents: 0,
          submittedAt: new Date().toISOString(),
        },
      }),
    ]);
    await producer.disconnect();
    await eventually(
      async () => ((await call('/qbo/status')).body.result.queues[0].completed >= 2 ? true : undefined),
      30_000,
    );

    // QuickBooks expires the token: the next call gets its 401 and the service refreshes.
    await emulatorCall(`/__emulator/realms/${realmId}/expire-access-tokens`, { method: 'POST' });
    expect((await call('/qbo/categories')).status).toBe(200);
    await remember();
    // A failing job (its QuickBooks fault is logged and listed).
    await eventually(async () =>
      (await call('/qbo/estimate', { method: 'POST', json: { id: estimateId } })).status === 202
        ? true
        : undefined,
    );
    await eventually(
      async () => ((await call('/qbo/jobs/failed')).body.result.length > 0 ? true : undefined),
      30_000,
    );
    await call('/qbo/status');
    await call('/qbo/users');
    // And the connection revoked: the refresh is refused and logged.
    await emulatorCall(`/__emulator/realms/${realmId}/revoke`, { method: 'POST' });
    expect((await call('/qbo/get/renewToken')).status).toBe(401);

    expect(tokens.size).toBeGreaterThanOrEqual(5);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('QuickBooks access token refreshed');
    expect(log.split('\n').length).toBeGreaterThan(20);

    const kafkaText: string[] = [];
    const admin = kafka.admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${RUN_ID}s.`));
    await admin.disconnect();
    expect(topics).toContain(`${RUN_ID}s.accounting`);
    const consumer = kafka.consumer({ groupId: `${RUN_ID}.secrets-scan.${newId()}` });
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => void kafkaText.push(message.value?.toString() ?? ''),
    });
    await eventually(
      async () =>
        kafkaText.some((m) => m.includes('QboConnectionChanged')) && kafkaText.length >= 6 ? true : undefined,
      20_000,
    );
    await consumer.disconnect();

    const answerText = answers
      .map((a) => `${JSON.stringify([...a.headers])}${JSON.stringify(a.body)}`)
      .join('\n');
    for (const token of tokens) {
      expect(answerText.includes(token)).toBe(false);
      expect(log.includes(token)).toBe(false);
      expect(kafkaText.some((m) => m.includes(token))).toBe(false);
    }
    expect(answerText).not.toMatch(/access_token|refresh_token/);
  }, 120_000);
});
