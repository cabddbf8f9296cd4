import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { accountingSyncConfigSchema } from '@decor/accounting-sync';
import { cartConfigSchema } from '@decor/cart';
import { catalogueConfigSchema } from '@decor/catalogue';
import { gatewayConfigSchema } from '@decor/gateway';
import {
  ConfigError,
  loadConfig,
  TRACING_ENV,
  tracingExporterFrom,
  tracingSettingProblems,
} from '@decor/kit';
import { notificationConfigSchema } from '@decor/notification';
import { orderConfigSchema } from '@decor/order';
import { userConfigSchema } from '@decor/user';
import type { TObject } from '@sinclair/typebox';
import { parse } from 'yaml';
import { REPO_ROOT, RUNNABLES } from '../src/runnables';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, string | number>;
  deploy?: { replicas?: string | number };
}

/** What an operator sets before `docker compose up` (the file refuses to start without them). */
const OPERATOR_ENV: Record<string, string> = {
  JWT_SECRET: 'gT4pXw9LqZ2nV7sK0cYbR5mHjD8fA3eU6oWiN1tQxE_',
  CORS_ORIGINS: 'https://rentals.example',
  S3_SECRET_ACCESS_KEY: 'minio-secret',
  QBO_CLIENT_ID: 'intuit-app-client-id',
  QBO_CLIENT_SECRET: 'intuit-app-secret',
  QBO_TOKEN_KEY: 'c2l4dGVlbi1ieXRlLWtleS1mb3ItdGVzdHMtb25seSE=',
};

/** Compose's own interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, name: string, kind?: string, rest?: string) => {
    if (env[name] !== undefined) return env[name];
    if (kind === '-') return rest ?? '';
    throw new Error(`${name} must be set: ${rest}`);
  });
}

/** Like compose: parse the YAML as it is (it must be valid YAML), then interpolate the values. */
function interpolateValues(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((v) => interpolateValues(v, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateValues(v, env)]));
  }
  return value;
}

const rawCompose = parse(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
const compose = interpolateValues(rawCompose, OPERATOR_ENV) as { services: Record<string, ComposeService> };

const SCHEMAS: Record<string, TObject> = {
  gateway: gatewayConfigSchema,
  user: userConfigSchema,
  catalogue: catalogueConfigSchema,
  cart: cartConfigSchema,
  order: orderConfigSchema,
  'accounting-sync': accountingSyncConfigSchema,
  notification: notificationConfigSchema,
  'notification-worker': notificationConfigSchema,
};

describe('docker-compose.yml (production topology; cannot run here, so it is checked)', () => {
  it('refuses to start without the secrets an operator must choose', () => {
    expect(() => interpolateValues(rawCompose, {})).toThrow(/JWT_SECRET must be set/);
  });

  it('runs the real infrastructure images', () => {
    for (const name of ['kafka', 'mongo', 'redis', 'minio', 'mailpit']) {
      expect(compose.services[name]?.image).toMatch(/^[\w./-]+:[\w.-]+$/);
    }
  });

  it('has a container for every process of the product, each built from a Dockerfile in the repo', () => {
    for (const runnable of RUNNABLES) expect(Object.keys(compose.services)).toContain(runnable.name);
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.image) continue;
      const build = service.build;
      expect(build).toBeDefined();
      expect(existsSync(path.join(REPO_ROOT, build?.context ?? '', build?.dockerfile ?? ''))).toBe(true);
      const entry = service.environment?.ENTRY === 'worker' ? 'worker' : 'main';
      const appDir = build?.args?.APP_DIR ?? '';
      expect({ name, entry: existsSync(path.join(REPO_ROOT, appDir, 'src', `${entry}.ts`)) }).toEqual({
        name,
        entry: true,
      });
      expect(String(service.deploy?.replicas)).toMatch(/^\d+$/);
    }
  });

  it('gives every service the environment its config demands in production', () => {
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      const env = Object.fromEntries(
        Object.entries(compose.services[name]?.environment ?? {}).map(([k, v]) => [k, String(v)]),
      );
      expect(env.NODE_ENV).toBe('production');
      let problems: string[] = [];
      try {
        loadConfig(schema, env);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        problems = err.problems;
      }
      expect({ name, problems }).toEqual({ name, problems: [] });
    }
  });

  it('sets only variables a process reads: its config.ts, the kit’s tracing, the image’s ENTRY', () => {
    const elsewhere = new Set<string>(['ENTRY', 'WORKER_PORT', ...TRACING_ENV]);
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      const keys = Object.keys(compose.services[name]?.environment ?? {});
      const stray = keys.filter((k) => !(k in schema.properties) && !elsewhere.has(k));
      expect({ name, stray }).toEqual({ name, stray: [] });
    }
  });

  it('traces over OTLP only when the operator names a collector, 10 % of requests by default', () => {
    const withCollector = interpolateValues(rawCompose, {
      ...OPERATOR_ENV,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
    }) as typeof compose;
    for (const name of Object.keys(SCHEMAS)) {
      const env = Object.fromEntries(
        Object.entries(compose.services[name]?.environment ?? {}).map(([k, v]) => [k, String(v)]),
      );
      expect({ name, problems: tracingSettingProblems(env) }).toEqual({ name, problems: [] });
      expect({ name, exporter: tracingExporterFrom(env), ratio: env.OTEL_TRACES_SAMPLER_ARG }).toEqual({
        name,
        exporter: undefined,
        ratio: '0.1',
      });
      const on = withCollector.services[name]?.environment ?? {};
      expect({ name, exporter: tracingExporterFrom(on as Record<string, string>) }).toEqual({
        name,
        exporter: { kind: 'otlp' },
      });
      expect(on.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
    }
  });

  it('would notice a missing variable (the check above is not vacuous)', () => {
    const env = Object.fromEntries(
      Object.entries(compose.services.user?.environment ?? {}).map(([k, v]) => [k, String(v)]),
    );
    delete env.MONGO_URL;
    expect(() => loadConfig(userConfigSchema, env)).toThrow('MONGO_URL is required when NODE_ENV=production');
  });

  it('points the gateway at every service by its compose name', () => {
    const env = compose.services.gateway?.environment ?? {};
    for (const runnable of RUNNABLES.filter((r) => r.urlEnv)) {
      expect(String(env[runnable.urlEnv as string])).toBe(`http://${runnable.name}:${runnable.port}`);
    }
  });
});
