import {
  type Static,
  type StaticDecode,
  type TObject,
  type TProperties,
  type TSchema,
  Type,
} from '@sinclair/typebox';
import { Value, type ValueError, ValueErrorType } from '@sinclair/typebox/value';
import { PUBLISHED_DEV_JWT_SECRET } from './http/tokens';

/** A missing or malformed environment variable; the message names each one and what is wrong. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid environment: ${problems.join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Schema option: the default is for local runs only; with NODE_ENV=production the variable must be set. */
export const REQUIRED_IN_PRODUCTION = 'requiredInProduction';

/**
 * Schema option: the default is a published secret (this repository), for tests only: without
 * DECOR_ALLOW_DEV_SECRETS=1 the variable must be set (`npm start` passes one made per installation).
 */
export const PUBLISHED_DEFAULT = 'publishedDefault';

/** A comma-separated env value ("a:1,b:2") read as a list of non-empty, trimmed items. */
export function commaList(
  options: { default?: string; description?: string; [REQUIRED_IN_PRODUCTION]?: boolean } = {},
) {
  return Type.Transform(
    Type.String({
      pattern: '[^,\\s]',
      'x-message': 'must be a comma-separated list, e.g. a:9092,b:9092',
      ...options,
    }),
  )
    .Decode((raw) =>
      raw
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    )
    .Encode((list) => list.join(','));
}

export const commonConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')], {
    default: 'development',
  }),
  SERVICE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    { default: 'info' },
  ),
  MONGO_URL: Type.String({
    pattern: '^mongodb(\\+srv)?://',
    'x-message': 'must start with mongodb:// or mongodb+srv://',
    default: 'mongodb://127.0.0.1:27027',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  MONGO_DB: Type.String({
    pattern: '^[A-Za-z0-9_-]{1,63}$',
    'x-message': 'must be a database name (letters, digits, _ and -)',
    default: 'decor',
  }),
  KAFKA_BROKERS: commaList({ default: '127.0.0.1:19092', [REQUIRED_IN_PRODUCTION]: true }),
  KAFKA_TOPIC_PREFIX: Type.String({
    pattern: '^[A-Za-z0-9_-]+$',
    'x-message': 'must be letters, digits, _ or - (topics are <prefix>.<aggregate>)',
    default: 'decor',
  }),
  REDIS_URL: Type.String({
    pattern: '^rediss?://',
    'x-message': 'must start with redis:// or rediss://',
    default: 'redis://127.0.0.1:6379',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  REDIS_PREFIX: Type.String({ minLength: 1, default: 'decor' }),
  /**
   * Signs and checks every token. The default is published (this repository): refused unless
   * DECOR_ALLOW_DEV_SECRETS=1 (tests), as is any value shorter or plainer than 32 random bytes
   * (loadConfig), so each installation needs its own (`npm start` generates one in infra/.data).
   */
  JWT_SECRET: Type.String({
    minLength: 16,
    default: PUBLISHED_DEV_JWT_SECRET,
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  JWT_EXPIRES_IN: Type.String({
    pattern: '^\\d+\\s*(ms|s|m|h|d|w)?$',
    'x-message': 'must be a duration like 12h, 30m or 3600s',
    default: '12h',
  }),
  /**
   * How long Kafka waits for a silent consumer before giving its partitions to another instance
   * (after a crash, events of those partitions wait this long). kafkajs' default is 30 s.
   */
  KAFKA_SESSION_TIMEOUT_MS: Type.Integer({ minimum: 6000, maximum: 300_000, default: 10_000 }),
  /**
   * Whether this instance relays its outbox to Kafka. Off: it serves HTTP and stores events, and
   * another instance (or a later start) publishes them — e.g. during a Kafka maintenance window.
   */
  OUTBOX_RELAY: Type.Boolean({ default: true }),
  /**
   * On SIGTERM, how long the process keeps serving (its /readyz already 503) before its port closes:
   * a load balancer or Kubernetes' endpoints stop sending it new requests meanwhile. Longer than
   * their probe interval; 0 (tests, one instance) closes at once.
   */
  DRAIN_DELAY_MS: Type.Integer({ minimum: 0, maximum: 15_000, default: 0 }),
  PUBLIC_BASE_URL: Type.String({
    pattern: '^https?://',
    'x-message': 'must start with http:// or https://',
    default: 'http://127.0.0.1:8080',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
});

export type CommonConfig = Readonly<StaticDecode<typeof commonConfigSchema>>;

type CommonProperties = (typeof commonConfigSchema)['properties'];

/**
 * The common keys plus a service's own (which may override a common one, e.g. its PORT default):
 * `serviceConfigSchema({ PORT: Type.Integer({ default: 3101 }), MONGO_DB: Type.String({ default: 'catalogue' }) })`.
 */
export function serviceConfigSchema<E extends TProperties>(
  extra: E,
): TObject<Omit<CommonProperties, keyof E> & E> {
  return Type.Object({ ...commonConfigSchema.properties, ...extra }) as unknown as TObject<
    Omit<CommonProperties, keyof E> & E
  >;
}

function literalValues(schema: TSchema): unknown[] | undefined {
  const options = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!options?.every((o) => 'const' in o)) return undefined;
  return options.map((o) => (o as unknown as { const: unknown }).const);
}

function describe(name: string, error: ValueError): string {
  const schema = error.schema as Record<string, unknown>;
  if (error.value === undefined) return `${name} is required`;
  if (typeof schema['x-message'] === 'string') return `${name} ${schema['x-message']}`;
  const allowed = literalValues(error.schema);
  if (allowed) return `${name} must be one of: ${allowed.join(', ')}`;
  switch (error.type) {
    case ValueErrorType.Integer:
      return `${name} must be an integer`;
    case ValueErrorType.Number:
      return `${name} must be a number`;
    case ValueErrorType.Boolean:
      return `${name} must be true or false`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `${name} must be at least ${schema.minimum}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `${name} must be at most ${schema.maximum}`;
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1
        ? `${name} must not be empty`
        : `${name} must be at least ${schema.minLength} characters`;
    case ValueErrorType.StringPattern:
      return `${name} has an invalid format (expected to match ${schema.pattern})`;
    default:
      return `${name} is invalid: ${error.message}`;
  }
}

/**
 * The one switch that lets a process use the published development secrets and short test ones:
 * set by the test support (serviceEnv) and jest's global setup, refused with NODE_ENV=production.
 * NODE_ENV=test alone no longer does: any environment can say that.
 */
export const DEV_SECRETS_FLAG = 'DECOR_ALLOW_DEV_SECRETS';

/**
 * Why `value` is no signing/encryption secret, or undefined: at least 32 random bytes are wanted,
 * i.e. 43+ characters (base64url of 32 bytes; 64 hex digits pass too) that are not a repetition of
 * a few (a random 43-character base64 string has ~30 different ones; 'a' x 64 has 1).
 */
export function weakSecretProblem(name: string, value: string): string | undefined {
  if (value.length >= 43 && new Set(value).size >= 10) return undefined;
  return `${name} must be at least 32 random bytes: 43 or more characters of e.g. openssl rand -base64 48 (64 hex digits also do), not a short or repetitive value`;
}

/**
 * Reads `env` (process.env by default) against the schema once: empty strings count as unset,
 * defaults fill the gaps, numbers and booleans are converted from text, transforms (comma lists)
 * applied. Any problem throws a ConfigError naming every bad variable; the result is frozen.
 */
export function loadConfig<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined> = process.env,
): Readonly<StaticDecode<T>> {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') raw[key] = value.trim();
  }

  const problems: string[] = [];
  const production = (raw.NODE_ENV ?? env.NODE_ENV) === 'production';
  if (production) {
    for (const [key, prop] of Object.entries(schema.properties)) {
      if ((prop as Record<string, unknown>)[REQUIRED_IN_PRODUCTION] && raw[key] === undefined) {
        problems.push(`${key} is required when NODE_ENV=production`);
      }
    }
  }

  // Value.Default fills `raw` in place: note first what was given at all.
  const given = new Set(Object.keys(raw));
  const secretGiven = given.has('JWT_SECRET');
  const candidate = Value.Convert(schema, Value.Default(schema, raw)) as Static<T>;
  const seen = new Set<string>();
  const devSecrets = env[DEV_SECRETS_FLAG] === '1';
  if (devSecrets && production) {
    problems.push(`${DEV_SECRETS_FLAG} is for tests only, never with NODE_ENV=production`);
  }
  const secret = (candidate as { JWT_SECRET?: unknown }).JWT_SECRET;
  if (
    'JWT_SECRET' in schema.properties &&
    typeof secret === 'string' &&
    !devSecrets &&
    !(production && !secretGiven) // already named as required
  ) {
    const problem =
      secret === PUBLISHED_DEV_JWT_SECRET
        ? 'JWT_SECRET must be a secret of this installation, not the published development one (npm start keeps one in infra/.data/jwt-secret; elsewhere e.g. openssl rand -base64 48)'
        : weakSecretProblem('JWT_SECRET', secret);
    if (problem) {
      problems.push(problem);
      seen.add('JWT_SECRET');
    }
  }
  for (const [key, prop] of Object.entries(schema.properties)) {
    const marked = (prop as Record<string, unknown>)[PUBLISHED_DEFAULT];
    // The published value is refused whether it came as the default or was written out explicitly.
    const spelledOut =
      given.has(key) &&
      (candidate as Record<string, unknown>)[key] === (prop as { default?: unknown }).default;
    const published = marked && (!given.has(key) || spelledOut);
    if (published && !devSecrets && (!production || spelledOut)) {
      problems.push(
        `${key} must be a secret of this installation, not the published development default (npm start keeps one in infra/.data)`,
      );
      seen.add(key);
    }
  }
  for (const error of Value.Errors(schema, candidate)) {
    const name = error.path.split('/')[1] ?? '(root)';
    if (seen.has(name)) continue;
    seen.add(name);
    problems.push(describe(name, error));
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const config = Value.Decode(schema, candidate) as Record<string, unknown>;
  for (const value of Object.values(config)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(config) as Readonly<StaticDecode<T>>;
}

/** For a service's main: the config, or the ConfigError's message on stderr and exit code 1 (no stack trace). */
export function loadConfigOrExit<T extends TObject>(schema: T, env?: Record<string, string | undefined>) {
  try {
    return loadConfig(schema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

/** Env of the connection's public half (no secret): both services read it. Defaults: the local emulator. */
export const qboConnectConfigSchema = {
  /** The app's OAuth client id (Intuit developer portal, or the local emulator's). */
  QBO_CLIENT_ID: Type.String({ minLength: 1, default: 'decor-local-client', [REQUIRED_IN_PRODUCTION]: true }),
  /** Intuit: https://appcenter.intuit.com/connect/oauth2 */
  QBO_AUTHORIZE_URL: Type.String({
    pattern: '^https?://',
    'x-message': 'must be the OAuth authorize URL (http:// or https://)',
    default: 'http://127.0.0.1:4580/connect/oauth2',
    [REQUIRED_IN_PRODUCTION]: true,
  }),
  /** Where QuickBooks sends the browser back: the site's /callback (registered with the app). */
  QBO_REDIRECT_URI: Type.Optional(Type.String({ pattern: '^https?://' })),
};
