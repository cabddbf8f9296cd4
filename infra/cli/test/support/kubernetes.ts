import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accountingSyncConfigSchema } from '@decor/accounting-sync';
import { cartConfigSchema } from '@decor/cart';
import { catalogueConfigSchema } from '@decor/catalogue';
import { gatewayConfigSchema, parseGatewayConfig } from '@decor/gateway';
import { TRACING_ENV } from '@decor/kit';
import { notificationConfigSchema } from '@decor/notification';
import { orderConfigSchema } from '@decor/order';
import { userConfigSchema } from '@decor/user';
import type { TObject } from '@sinclair/typebox';
import { parse, parseAllDocuments } from 'yaml';
import { GATEWAY, REPO_ROOT, SERVICES } from '../../src/runnables';

/** What kubernetes.test.ts reads: infra/kubernetes's manifests, the processes they run, helpers. */
export const K8S = path.join(REPO_ROOT, 'infra/kubernetes');
export const BASE = path.join(K8S, 'base');
export const OVERLAY = path.join(K8S, 'overlays/example');

// biome-ignore lint/suspicious/noExplicitAny: manifests are untyped YAML, checked field by field
export type Obj = Record<string, any>;
export interface Manifest {
  file: string;
  obj: Obj;
}

export const yamlDocs = (file: string): Obj[] =>
  parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
    return doc.toJS() as Obj;
  });

export const kustomization = (dir: string): Obj =>
  parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'));

/** The objects of a kustomization's own resource files (directories, i.e. other kustomizations, skipped). */
export function ownResources(dir: string): Manifest[] {
  return (kustomization(dir).resources as string[])
    .map((r) => path.join(dir, r))
    .filter((file) => !existsSync(path.join(file, 'kustomization.yaml')))
    .flatMap((file) => yamlDocs(file).map((obj) => ({ file: path.relative(K8S, file), obj })));
}

export const base = ownResources(BASE);
export const overlay = ownResources(OVERLAY);
export const ofKind = (kind: string, list = base) =>
  list.filter((m) => m.obj.kind === kind).map((m) => m.obj);
export const named = (kind: string, name: string, list = base) =>
  ofKind(kind, list).find((o) => o.metadata.name === name);

/** Every process of the product as the manifests must run it. */
export interface Process {
  name: string;
  dir: string;
  entry: 'main' | 'worker';
  port: number;
  /** Env variable that carries the port. */
  portEnv: 'PORT' | 'WORKER_PORT';
  internalPort?: number;
  schema: TObject;
  /** How its main reads the env (the gateway adds rules of its own: TRUST_PROXY, CORS_ORIGINS). */
  load?: (env: Record<string, string | undefined>) => unknown;
}
export const SCHEMAS: Record<string, TObject> = {
  user: userConfigSchema,
  catalogue: catalogueConfigSchema,
  cart: cartConfigSchema,
  order: orderConfigSchema,
  'accounting-sync': accountingSyncConfigSchema,
  notification: notificationConfigSchema,
};
export const PROCESSES: Process[] = [
  ...SERVICES.map((s) => ({
    name: s.name,
    dir: s.dir,
    entry: 'main' as const,
    port: s.port,
    portEnv: 'PORT' as const,
    schema: SCHEMAS[s.name] as TObject,
  })),
  ...SERVICES.filter((s) => s.worker).map((s) => ({
    name: `${s.name}-worker`,
    dir: s.dir,
    entry: 'worker' as const,
    port: s.workerPort as number,
    portEnv: 'WORKER_PORT' as const,
    schema: SCHEMAS[s.name] as TObject,
  })),
  {
    name: GATEWAY.name,
    dir: GATEWAY.dir,
    entry: 'main',
    port: GATEWAY.port,
    portEnv: 'PORT',
    internalPort: GATEWAY.internalPort,
    schema: gatewayConfigSchema,
    load: parseGatewayConfig,
  },
];
/**
 * Read outside config.ts: ENTRY by the image's CMD (node-app.Dockerfile), WORKER_PORT by worker.ts,
 * the tracing settings by the kit's tracing at its first import (services/kit/src/tracing/config.ts).
 */
export const READ_ELSEWHERE = new Set<string>(['ENTRY', 'WORKER_PORT', ...TRACING_ENV]);

export const SECRETS_EXAMPLE = path.join(OVERLAY, 'secrets.env.example');
export const envFileKeys = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^\w+=/.test(line))
    .map((line) => line.slice(0, line.indexOf('=')));

/** What an operator's Secret holds (values of the right shape, made up per run). */
export const SECRET_VALUES: Record<string, string> = {
  JWT_SECRET: randomBytes(48).toString('base64'),
  MONGO_URL: 'mongodb://decor:mongo-password@decor-mongodb-svc:27017/admin?replicaSet=decor-mongodb',
  REDIS_URL: 'redis://:redis-password@redis:6379',
  SMTP_URL: 'smtp://mailer:smtp-password@smtp.example:587',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE',
  S3_SECRET_ACCESS_KEY: randomBytes(30).toString('base64'),
  QBO_CLIENT_ID: 'intuit-app-client-id',
  QBO_CLIENT_SECRET: randomBytes(30).toString('base64'),
  QBO_TOKEN_KEY: randomBytes(32).toString('base64'),
  STRIPE_SECRET_KEY: `sk_live_${randomBytes(24).toString('hex')}`,
  STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
  STRIPE_PUBLISHABLE_KEY: `pk_live_${randomBytes(24).toString('hex')}`,
};

export const SECRET_NAME = /SECRET|PASSWORD|KEY|TOKEN/;

export function deploymentOf(name: string): Obj {
  const deployment = named('Deployment', name);
  if (!deployment) throw new Error(`no Deployment ${name} in ${path.relative(REPO_ROOT, BASE)}`);
  return deployment;
}
export const containerOf = (name: string): Obj => deploymentOf(name).spec.template.spec.containers[0];

/**
 * A container's environment as the kubelet would build it from these ConfigMaps (secret keys get
 * SECRET_VALUES); `inline` lists the variables given a literal value.
 */
export function containerEnv(container: Obj, configMaps: Obj[]) {
  const env: Record<string, string> = {};
  const inline: string[] = [];
  const secretKeys: string[] = [];
  const configMap = (name: string) => {
    const found = configMaps.find((c) => c.metadata.name === name);
    if (!found) throw new Error(`${container.name}: no ConfigMap ${name}`);
    return found.data as Record<string, string>;
  };
  for (const from of container.envFrom ?? []) {
    if (!from.configMapRef)
      throw new Error(`${container.name}: envFrom takes ConfigMaps only (secrets per key)`);
    Object.assign(env, configMap(from.configMapRef.name));
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom ?? {};
    if (entry.value !== undefined) {
      inline.push(entry.name);
      env[entry.name] = String(entry.value);
    } else if (ref.configMapKeyRef) {
      const value = configMap(ref.configMapKeyRef.name)[ref.configMapKeyRef.key];
      if (value === undefined)
        throw new Error(`${container.name}: ${ref.configMapKeyRef.name} has no ${entry.name}`);
      env[entry.name] = value;
    } else if (ref.secretKeyRef) {
      secretKeys.push(ref.secretKeyRef.key);
      env[entry.name] = SECRET_VALUES[ref.secretKeyRef.key] ?? '';
    } else {
      throw new Error(`${container.name}: ${entry.name} has neither a ConfigMap nor a Secret reference`);
    }
  }
  return { env, inline, secretKeys };
}

/** CPU ("500m", "1") in millicores, memory ("256Mi", "1Gi") in MiB. */
export const cpu = (q: string | number) =>
  String(q).endsWith('m') ? Number.parseFloat(String(q)) : Number(q) * 1000;
export const mem = (q: string) => Number.parseFloat(q) * ({ Mi: 1, Gi: 1024 }[q.slice(-2)] ?? Number.NaN);

/** The objects through kubernetes-models, in a Node process of its own (the package is ESM only). */
export function validateWithSchemas(objects: Obj[]): { schema: boolean; error?: string }[] {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'kubernetes-schema.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/**
 * The objects typed against kubernetes-models' TypeScript definitions: the API schemas accept fields
 * they do not know (a misspelt `readinesProbe` would do nothing), TypeScript's excess-property check
 * does not. Each object is one object literal of its kind's interface; tsc's errors per object.
 */
export function typeCheckManifests(objects: Obj[]): string[][] {
  const dir = mkdtempSync(path.join(tmpdir(), 'decor-k8s-types-'));
  try {
    const lines = objects.map((o, i) => {
      const kind = String(o.kind).replace(/\W/g, '');
      return `import type { I${kind} as T${i} } from 'kubernetes-models/${o.apiVersion}/${kind}';\nexport const o${i}: T${i} = ${JSON.stringify(o)};`;
    });
    writeFileSync(path.join(dir, 'manifests.ts'), `${lines.join('\n')}\n`);
    const models = path.join(REPO_ROOT, 'node_modules/kubernetes-models/*');
    const compilerOptions = { noEmit: true, strict: true, module: 'esnext', moduleResolution: 'bundler' };
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...compilerOptions, types: [], paths: { 'kubernetes-models/*': [models] } },
        files: ['manifests.ts'],
      }),
    );
    let out = '';
    try {
      execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { encoding: 'utf8' });
    } catch (err) {
      out = String((err as { stdout?: string }).stdout ?? err);
    }
    const errors: string[][] = objects.map(() => []);
    for (const match of out.matchAll(/manifests\.ts\((\d+),\d+\): error (TS\d+: .*)/g)) {
      // Object i is on line 2i + 2 (its import on 2i + 1).
      const line = Number(match[1]);
      errors[Math.floor((line - 1) / 2)]?.push(match[2] as string);
    }
    if (out && errors.every((e) => e.length === 0)) throw new Error(`tsc failed: ${out}`);
    return errors;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Custom resources of the operators: no schema in kubernetes-models. */
export const OPERATOR_KINDS: Record<string, RegExp> = {
  Kafka: /^kafka\.strimzi\.io\/v1(beta2)?$/,
  KafkaNodePool: /^kafka\.strimzi\.io\/v1(beta2)?$/,
  MongoDBCommunity: /^mongodbcommunity\.mongodb\.com\/v1$/,
};
