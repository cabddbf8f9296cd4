import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import {
  ConfigError,
  commaList,
  commonConfigSchema,
  loadConfig,
  PUBLISHED_DEFAULT,
  serviceConfigSchema,
} from '../src/config';

const PRODUCTION_ADDRESSES = {
  NODE_ENV: 'production',
  MONGO_URL: 'mongodb://mongo:27017',
  KAFKA_BROKERS: 'kafka:9092',
  REDIS_URL: 'redis://redis:6379',
  PUBLIC_BASE_URL: 'https://rentals.example',
};

function problemsOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

/** Outside tests a process needs its installation's own JWT secret (npm start passes one). */
const OWN_SECRET = { JWT_SECRET: 'q3VtX8nD2kLwP0rYbZ7sFhJcA9eGmTuQ1oRiN4yW6xE' };

test('an environment with only the installation secret gives the local defaults', () => {
  const config = loadConfig(commonConfigSchema, OWN_SECRET);
  expect(config).toMatchObject({
    NODE_ENV: 'development',
    PORT: 3000,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    MONGO_URL: 'mongodb://127.0.0.1:27027',
    KAFKA_BROKERS: ['127.0.0.1:19092'],
    KAFKA_TOPIC_PREFIX: 'decor',
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: 'decor',
    JWT_EXPIRES_IN: '12h',
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
  });
  expect(config.JWT_SECRET).toBe(OWN_SECRET.JWT_SECRET);
  expect(config.SERVICE_NAME).toBeUndefined();
});

test('the published development secret (the default) is refused unless the explicit test flag is set', () => {
  const refusal =
    'Invalid environment: JWT_SECRET must be a secret of this installation, not the published development one ' +
    '(npm start keeps one in infra/.data/jwt-secret; elsewhere e.g. openssl rand -base64 48)';
  expect(problemsOf(() => loadConfig(commonConfigSchema, {}))).toBe(refusal);
  expect(problemsOf(() => loadConfig(commonConfigSchema, { NODE_ENV: 'development' }))).toBe(refusal);
  expect(
    problemsOf(() =>
      loadConfig(commonConfigSchema, { JWT_SECRET: 'decor-local-development-secret-not-for-production' }),
    ),
  ).toBe(refusal);
  // NODE_ENV=test is no pass: any environment can say it.
  expect(problemsOf(() => loadConfig(commonConfigSchema, { NODE_ENV: 'test' }))).toBe(refusal);
  expect(loadConfig(commonConfigSchema, { DECOR_ALLOW_DEV_SECRETS: '1' }).JWT_SECRET).toBe(
    'decor-local-development-secret-not-for-production',
  );
});

test('a secret must be 32 random bytes or more (43+ characters, not repetitive); the test flag only outside production', () => {
  const weak =
    'Invalid environment: JWT_SECRET must be at least 32 random bytes: 43 or more characters of e.g. ' +
    'openssl rand -base64 48 (64 hex digits also do), not a short or repetitive value';
  for (const JWT_SECRET of [
    'short',
    'test-secret-shared-by-gateway-and-services',
    'a'.repeat(64),
    'abab'.repeat(16),
  ]) {
    expect(problemsOf(() => loadConfig(commonConfigSchema, { JWT_SECRET }))).toBe(weak);
    expect(problemsOf(() => loadConfig(commonConfigSchema, { NODE_ENV: 'test', JWT_SECRET }))).toBe(weak);
  }
  for (const bytes of [32, 48]) {
    const base64url = randomBytes(bytes).toString('base64url');
    expect(loadConfig(commonConfigSchema, { JWT_SECRET: base64url }).JWT_SECRET).toBe(base64url);
    const hex = randomBytes(bytes).toString('hex');
    expect(loadConfig(commonConfigSchema, { JWT_SECRET: hex }).JWT_SECRET).toBe(hex);
  }
  const flagged = { DECOR_ALLOW_DEV_SECRETS: '1', JWT_SECRET: 'test-secret-shared-by-gateway-and-services' };
  expect(loadConfig(commonConfigSchema, flagged).JWT_SECRET).toBe(flagged.JWT_SECRET);
  expect(problemsOf(() => loadConfig(commonConfigSchema, { ...flagged, JWT_SECRET: 'short' }))).toBe(
    'Invalid environment: JWT_SECRET must be at least 16 characters',
  );
  expect(
    problemsOf(() =>
      loadConfig(commonConfigSchema, {
        ...PRODUCTION_ADDRESSES,
        ...flagged,
        JWT_SECRET: randomBytes(48).toString('base64'),
      }),
    ),
  ).toBe('Invalid environment: DECOR_ALLOW_DEV_SECRETS is for tests only, never with NODE_ENV=production');
});

test('a published default marked as such is refused unless the test flag is set, and a given value is kept', () => {
  const schema = serviceConfigSchema({
    TOKEN_KEY: Type.String({ default: 'published', [PUBLISHED_DEFAULT]: true }),
  });
  expect(problemsOf(() => loadConfig(schema, OWN_SECRET))).toBe(
    'Invalid environment: TOKEN_KEY must be a secret of this installation, not the published development default (npm start keeps one in infra/.data)',
  );
  expect(loadConfig(schema, { ...OWN_SECRET, DECOR_ALLOW_DEV_SECRETS: '1' }).TOKEN_KEY).toBe('published');
  expect(loadConfig(schema, { ...OWN_SECRET, TOKEN_KEY: 'own' }).TOKEN_KEY).toBe('own');
  // Written out explicitly, in production too, it is still the published value.
  for (const env of [{ ...OWN_SECRET }, { ...PRODUCTION_ADDRESSES, ...OWN_SECRET }])
    expect(problemsOf(() => loadConfig(schema, { ...env, TOKEN_KEY: 'published' }))).toContain(
      'TOKEN_KEY must be a secret of this installation, not the published development default',
    );
});

test('values are read from text: numbers converted, lists split, blanks treated as unset', () => {
  const config = loadConfig(commonConfigSchema, {
    ...OWN_SECRET,
    PORT: '4100',
    KAFKA_BROKERS: 'k1:9092, k2:9092,',
    LOG_LEVEL: 'debug',
    HOST: '   ',
    UNRELATED: 'ignored',
  });
  expect(config.PORT).toBe(4100);
  expect(config.KAFKA_BROKERS).toEqual(['k1:9092', 'k2:9092']);
  expect(config.LOG_LEVEL).toBe('debug');
  expect(config.HOST).toBe('127.0.0.1');
  expect('UNRELATED' in config).toBe(false);
});

test('the result is frozen', () => {
  const config = loadConfig(commonConfigSchema, OWN_SECRET);
  expect(Object.isFrozen(config)).toBe(true);
  expect(Object.isFrozen(config.KAFKA_BROKERS)).toBe(true);
});

test('every malformed or missing variable is named with what is wrong', () => {
  const schema = serviceConfigSchema({
    QBO_CLIENT_ID: Type.String({ minLength: 1 }),
    BROKERS: commaList(),
    RETRIES: Type.Integer({ minimum: 0, default: 3 }),
    DRY_RUN: Type.Boolean({ default: false }),
  });
  const message = problemsOf(() =>
    loadConfig(schema, {
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      MONGO_URL: 'postgres://x',
      RETRIES: '-1',
      DRY_RUN: 'maybe',
    }),
  );
  expect(message).toMatch(/^Invalid environment: /);
  expect(message).toContain('PORT must be an integer');
  expect(message).toContain('LOG_LEVEL must be one of: fatal, error, warn, info, debug, trace, silent');
  expect(message).toContain('MONGO_URL must start with mongodb:// or mongodb+srv://');
  expect(message).toContain('QBO_CLIENT_ID is required');
  expect(message).toContain('BROKERS is required');
  expect(message).toContain('RETRIES must be at least 0');
  expect(message).toContain('DRY_RUN must be true or false');
});

test('a service can override a common default and add its own keys', () => {
  const schema = serviceConfigSchema({
    PORT: Type.Integer({ default: 3101 }),
    MONGO_DB: Type.String({ default: 'catalogue' }),
    DRY_RUN: Type.Boolean({ default: false }),
  });
  const config = loadConfig(schema, { DRY_RUN: 'true', ...OWN_SECRET });
  expect(config.PORT).toBe(3101);
  expect(config.MONGO_DB).toBe('catalogue');
  expect(config.DRY_RUN).toBe(true);
  expect(config.REDIS_PREFIX).toBe('decor');
});

test('in production the secret and every address must be set explicitly (no local defaults)', () => {
  expect(problemsOf(() => loadConfig(commonConfigSchema, { NODE_ENV: 'production' }))).toBe(
    'Invalid environment: MONGO_URL is required when NODE_ENV=production; KAFKA_BROKERS is required when NODE_ENV=production; ' +
      'REDIS_URL is required when NODE_ENV=production; JWT_SECRET is required when NODE_ENV=production; ' +
      'PUBLIC_BASE_URL is required when NODE_ENV=production',
  );
  const addresses = PRODUCTION_ADDRESSES;
  expect(
    problemsOf(() =>
      loadConfig(commonConfigSchema, { ...addresses, JWT_SECRET: 'a-long-production-secret-value' }),
    ),
  ).toMatch(/^Invalid environment: JWT_SECRET must be at least 32 random bytes/);
  const config = loadConfig(commonConfigSchema, { ...addresses, ...OWN_SECRET });
  expect(config.JWT_SECRET).toBe(OWN_SECRET.JWT_SECRET);
  expect(config.KAFKA_BROKERS).toEqual(['kafka:9092']);
});

test('loadConfigOrExit stops the process with the message and no stack trace', () => {
  const script = `require(${JSON.stringify(path.join(__dirname, '../src/config.ts'))}).loadConfigOrExit(
    require(${JSON.stringify(path.join(__dirname, '../src/config.ts'))}).commonConfigSchema); console.log('started')`;
  const run = spawnSync(path.join(__dirname, '../../../node_modules/.bin/tsx'), ['-e', script], {
    env: { ...process.env, PORT: 'eighty', NODE_ENV: 'development', ...OWN_SECRET },
    encoding: 'utf8',
  });
  expect(run.status).toBe(1);
  expect(run.stderr.trim()).toBe('Invalid environment: PORT must be an integer');
  expect(run.stdout).not.toContain('started');
});
