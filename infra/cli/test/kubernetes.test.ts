import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ConfigError,
  createServiceApp,
  listenInternal,
  loadConfig,
  SHUTDOWN_BUDGET_MS,
  tracingExporterFrom,
  tracingSettingProblems,
} from '@decor/kit';
import { userConfigSchema } from '@decor/user';
import { parse, parseAllDocuments } from 'yaml';
import { GATEWAY, REPO_ROOT, SERVICES } from '../src/runnables';
import {
  BASE,
  base,
  containerEnv,
  containerOf,
  cpu,
  deploymentOf,
  envFileKeys,
  K8S,
  kustomization,
  mem,
  named,
  type Obj,
  OPERATOR_KINDS,
  OVERLAY,
  ofKind,
  overlay,
  PROCESSES,
  READ_ELSEWHERE,
  SECRET_NAME,
  SECRET_VALUES,
  SECRETS_EXAMPLE,
  typeCheckManifests,
  validateWithSchemas,
  yamlDocs,
} from './support/kubernetes';

/** The tracing settings the deployment files set for every process (the rest keep the kit's defaults). */
const TRACING_SET = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_TRACES_SAMPLER_ARG'];

// infra/kubernetes cannot be applied here (no cluster): its manifests are checked as files, against
// the Kubernetes API schemas, the processes' config schemas and docker-compose.yml.

/** docker-compose.yml as written (names and literal values; `${…}` left as is). */
const compose = parse(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Obj>;
};

describe('infra/kubernetes (kustomize; no cluster here, so the manifests are checked as files)', () => {
  it('lists every manifest in its kustomization, and each exists', () => {
    for (const dir of [BASE, OVERLAY]) {
      const k = kustomization(dir);
      const files = [...k.resources, ...(k.patches ?? []).map((p: Obj) => p.path)] as string[];
      for (const file of files)
        expect({ dir, file, exists: existsSync(path.join(dir, file)) }).toEqual({ dir, file, exists: true });
      const yamls = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
      expect(yamls.filter((f) => !files.includes(f))).toEqual([]);
    }
    expect(kustomization(OVERLAY).resources).toContain('../../base');
  });

  it('validates every object against the Kubernetes API schemas (operators’ resources: their shape only)', () => {
    const all = [...base, ...overlay];
    const results = validateWithSchemas(all.map((m) => m.obj));
    const problems = all.flatMap((m, i) => {
      const { kind, apiVersion, metadata } = m.obj;
      const where = `${m.file}: ${kind} ${metadata?.name}`;
      const result = results[i];
      if (result?.error) return [`${where}: ${result.error}`];
      if (result?.schema) return [];
      const operator = OPERATOR_KINDS[kind];
      if (!operator) return [`${where}: no schema for ${apiVersion} ${kind}`];
      return operator.test(apiVersion) && typeof metadata?.name === 'string' && m.obj.spec
        ? []
        : [`${where}: not an operator resource`];
    });
    expect(problems).toEqual([]);
    expect(Object.keys(OPERATOR_KINDS).every((kind) => ofKind(kind, overlay).length === 1)).toBe(true);
  });

  it('would notice an invalid object (the schema check above is not vacuous)', () => {
    const broken = structuredClone(deploymentOf('user'));
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    const [result] = validateWithSchemas([broken]);
    expect(result?.error).toMatch(/containerPort must be integer/);
  });

  it('uses no field the Kubernetes API does not know (typed against kubernetes-models’ definitions)', () => {
    const typed = [...base, ...overlay].filter((m) => !OPERATOR_KINDS[m.obj.kind]);
    const errors = typeCheckManifests(typed.map((m) => m.obj));
    const problems = typed.flatMap((m, i) =>
      (errors[i] ?? []).map((e) => `${m.file}: ${m.obj.kind} ${m.obj.metadata.name}: ${e}`),
    );
    expect(problems).toEqual([]);
  });

  it('would notice a misspelt field (the type check above is not vacuous)', () => {
    const misspelt = structuredClone(deploymentOf('user'));
    const container = misspelt.spec.template.spec.containers[0];
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    const [errors] = typeCheckManifests([misspelt]);
    expect(errors?.join('\n')).toMatch(/readinesProbe.*' does not exist in type 'IContainer'/);
  });

  it('has a Deployment, Service, PodDisruptionBudget and HorizontalPodAutoscaler per process', () => {
    expect(
      ofKind('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual(PROCESSES.map((p) => p.name).sort());
    for (const p of PROCESSES) {
      const deployment = deploymentOf(p.name);
      const podLabels = deployment.spec.template.metadata.labels;
      const selects = (selector: Record<string, string>) =>
        Object.entries(selector).every(([k, v]) => podLabels[k] === v);
      expect(selects(deployment.spec.selector.matchLabels)).toBe(true);
      // The autoscaler owns the count: an apply must not reset it.
      expect({ name: p.name, replicas: deployment.spec.replicas }).toEqual({
        name: p.name,
        replicas: undefined,
      });

      const service = named('Service', p.name);
      expect(selects(service?.spec.selector ?? {})).toBe(true);
      expect(service?.spec.ports).toEqual([{ name: 'http', port: p.port, targetPort: 'http' }]);

      const pdb = named('PodDisruptionBudget', p.name);
      expect(selects(pdb?.spec.selector.matchLabels ?? {})).toBe(true);
      expect(pdb?.spec.maxUnavailable).toBe(1);

      const hpa = named('HorizontalPodAutoscaler', p.name);
      expect(hpa?.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: p.name });
      expect(hpa?.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa?.spec.metrics).toContainEqual({
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } },
      });
    }
  });

  it('runs each process from the image recipe, with its port and probe paths', () => {
    for (const p of PROCESSES) {
      const container = containerOf(p.name);
      // One recipe (infra/cli/docker/node-app.Dockerfile) per APP_DIR: decor-<app>, as compose builds it.
      expect({ name: p.name, image: container.image }).toEqual({
        name: p.name,
        image: `decor-${path.basename(p.dir)}`,
      });
      expect(compose.services[p.name]?.build?.args?.APP_DIR).toBe(p.dir);
      expect(existsSync(path.join(REPO_ROOT, p.dir, 'src', `${p.entry}.ts`))).toBe(true);

      const ports = Object.fromEntries(container.ports.map((port: Obj) => [port.name, port.containerPort]));
      expect({ name: p.name, ports }).toEqual({
        name: p.name,
        ports: p.internalPort ? { http: p.port, internal: p.internalPort } : { http: p.port },
      });
      // Probes: /healthz (alive) and /readyz (dependencies) on the port that answers them.
      const probePort = p.internalPort ? 'internal' : 'http';
      expect({
        name: p.name,
        startup: container.startupProbe.httpGet,
        live: container.livenessProbe.httpGet,
      }).toEqual({
        name: p.name,
        startup: { path: '/healthz', port: probePort },
        live: { path: '/healthz', port: probePort },
      });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: probePort });
    }
  });

  it('answers those probe paths: /healthz and /readyz on a service, on the edge’s internal port only', async () => {
    const service = await createServiceApp({ name: 'probe-check', logLevel: 'silent' });
    const edge = await createServiceApp({
      name: 'probe-check-edge',
      logLevel: 'silent',
      operations: 'internal',
    });
    try {
      for (const url of ['/healthz', '/readyz']) expect((await service.inject({ url })).statusCode).toBe(200);
      const internal = await listenInternal(edge, { port: 0, host: '127.0.0.1' });
      await edge.ready();
      for (const url of ['/healthz', '/readyz']) expect((await fetch(`${internal}${url}`)).status).toBe(200);
      expect((await edge.inject({ url: '/readyz' })).statusCode).toBe(404);
    } finally {
      await Promise.all([service.close(), edge.close()]);
    }
    // The gateway is such an edge: operations on INTERNAL_PORT.
    const gatewayApp = readFileSync(path.join(REPO_ROOT, 'gateway/src/app.ts'), 'utf8');
    expect(gatewayApp).toMatch(/operations: 'internal'/);
    expect(gatewayApp).toMatch(/listenInternal\(app, \{ port: config\.INTERNAL_PORT/);
  });

  it('gives every pod longer to stop than the process drains, and sizes each', () => {
    for (const p of PROCESSES) {
      const pod = deploymentOf(p.name).spec.template.spec;
      const container = pod.containers[0];
      const [sleep, seconds] = container.lifecycle?.preStop?.exec?.command ?? ['sleep', '0'];
      expect(sleep).toBe('sleep');
      const stopMs = Number(seconds) * 1000 + SHUTDOWN_BUDGET_MS;
      expect({ name: p.name, graceMs: pod.terminationGracePeriodSeconds * 1000 > stopMs }).toEqual({
        name: p.name,
        graceMs: true,
      });

      const { requests, limits } = container.resources;
      expect(cpu(requests.cpu)).toBeGreaterThan(0);
      expect(cpu(requests.cpu)).toBeLessThanOrEqual(cpu(limits.cpu));
      expect(mem(requests.memory)).toBeGreaterThan(0);
      expect(mem(requests.memory)).toBeLessThanOrEqual(mem(limits.memory));
      // Each figure says where it comes from (the bench or a measurement).
      expect(readFileSync(path.join(BASE, `${p.name}.yaml`), 'utf8')).toMatch(
        /# CPU: .+\n(.*\n)*?\s*# Memory: /,
      );
    }
  });

  it('takes configuration from ConfigMaps and secrets from the Secret by reference, never inline', () => {
    const secretKeys = new Set<string>();
    for (const p of PROCESSES) {
      const result = containerEnv(containerOf(p.name), ofKind('ConfigMap'));
      expect({ name: p.name, inline: result.inline }).toEqual({ name: p.name, inline: [] });
      for (const key of result.secretKeys) secretKeys.add(key);
    }
    for (const env of containerOf('gateway').env) {
      if (env.valueFrom?.secretKeyRef) expect(env.valueFrom.secretKeyRef.name).toBe('decor-secrets');
    }
    // The operator's Secret: exactly the keys the Deployments take (secrets.env.example lists them).
    expect([...secretKeys].sort()).toEqual(envFileKeys(SECRETS_EXAMPLE).sort());
    expect(Object.keys(SECRET_VALUES).sort()).toEqual([...secretKeys].sort());

    // No secret in any checked-in manifest: no Secret objects, no secret-looking ConfigMap key, no
    // credentials in a URL, and no literal value for a secret-looking variable anywhere.
    for (const m of [...base, ...overlay]) {
      expect({ file: m.file, kind: m.obj.kind }).not.toEqual({ file: m.file, kind: 'Secret' });
      for (const [key, value] of Object.entries((m.obj.data ?? {}) as Record<string, string>)) {
        expect({ key, secretLooking: SECRET_NAME.test(key) && !key.endsWith('_URL') }).toEqual({
          key,
          secretLooking: false,
        });
        expect({ key, credentials: /:\/\/[^/\s@]+:[^/\s@]+@/.test(String(value)) }).toEqual({
          key,
          credentials: false,
        });
      }
      const pod = m.obj.spec?.template?.spec;
      for (const container of pod?.containers ?? []) {
        for (const env of container.env ?? []) {
          expect({ name: env.name, literal: SECRET_NAME.test(env.name) && env.value !== undefined }).toEqual({
            name: env.name,
            literal: false,
          });
        }
      }
    }
    expect(readFileSync(path.join(OVERLAY, '.gitignore'), 'utf8')).toMatch(/^\*\.env$/m);
  });

  const patchedConfigMaps = () => {
    const maps = structuredClone(ofKind('ConfigMap'));
    for (const patch of (kustomization(OVERLAY).patches as Obj[]).flatMap((p) =>
      yamlDocs(path.join(OVERLAY, p.path)),
    )) {
      if (patch.kind !== 'ConfigMap') continue;
      const target = maps.find((c) => c.metadata.name === patch.metadata.name);
      for (const key of Object.keys(patch.data))
        expect({ map: patch.metadata.name, key, inBase: key in (target?.data ?? {}) }).toEqual({
          map: patch.metadata.name,
          key,
          inBase: true,
        });
      Object.assign(target?.data ?? {}, patch.data);
    }
    return maps;
  };

  it.each([
    ['base', () => ofKind('ConfigMap')],
    ['example overlay', patchedConfigMaps],
  ])(
    'sets every variable each config.ts requires in production, and none it does not read (%s)',
    (which, maps) => {
      for (const p of PROCESSES) {
        const { env } = containerEnv(containerOf(p.name), maps());
        expect({ name: p.name, NODE_ENV: env.NODE_ENV }).toEqual({ name: p.name, NODE_ENV: 'production' });
        const stray = Object.keys(env).filter((k) => !(k in p.schema.properties) && !READ_ELSEWHERE.has(k));
        expect({ name: p.name, stray }).toEqual({ name: p.name, stray: [] });
        // The worker reads its port from WORKER_PORT (services/notification/src/worker.ts).
        const processEnv = p.portEnv === 'WORKER_PORT' ? { ...env, PORT: env.WORKER_PORT } : env;
        let problems: string[] = [];
        try {
          (p.load ?? ((env) => loadConfig(p.schema, env)))(processEnv);
        } catch (err) {
          if (!(err instanceof ConfigError)) throw err;
          problems = err.problems;
        }
        expect({ name: p.name, problems }).toEqual({ name: p.name, problems: [] });
        expect({ name: p.name, port: env[p.portEnv] }).toEqual({ name: p.name, port: String(p.port) });
        if (p.internalPort) expect(env.INTERNAL_PORT).toBe(String(p.internalPort));
        // Tracing, read by the kit rather than config.ts: set for every process, and well formed.
        expect({ name: p.name, tracing: tracingSettingProblems(env) }).toEqual({ name: p.name, tracing: [] });
        expect({ name: p.name, sampled: env.OTEL_TRACES_SAMPLER_ARG }).toEqual({
          name: p.name,
          sampled: '0.1',
        });
        expect(TRACING_SET.filter((k) => env[k] === undefined)).toEqual([]);
        // The base loads no tracing (no collector named); the example overlay exports over OTLP.
        expect(tracingExporterFrom(env)).toEqual(which === 'base' ? undefined : { kind: 'otlp' });
      }
    },
  );

  it('lets every process reach the trace collector the example overlay names, and only its port', () => {
    const { env } = containerEnv(containerOf('user'), patchedConfigMaps());
    const endpoint = new URL(env.OTEL_EXPORTER_OTLP_ENDPOINT as string);
    const port = Number(endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80));
    const policies = [...ofKind('NetworkPolicy'), ...ofKind('NetworkPolicy', overlay)];
    for (const p of PROCESSES) {
      const labels = deploymentOf(p.name).spec.template.metadata.labels;
      const rules = policies
        .filter((np) =>
          Object.entries(np.spec.podSelector.matchLabels ?? {}).every(([k, v]) => labels[k] === v),
        )
        .flatMap((np) => np.spec.egress ?? []);
      const toCollector = rules.filter((rule: Obj) => rule.ports.some((x: Obj) => x.port === port));
      expect({ name: p.name, reaches: toCollector.length > 0 }).toEqual({ name: p.name, reaches: true });
    }
    const exportPolicy = named('NetworkPolicy', 'decor-traces-export', overlay);
    expect(exportPolicy?.spec.egress).toEqual([
      {
        to: [expect.objectContaining({ namespaceSelector: expect.any(Object) })],
        ports: [{ protocol: 'TCP', port }],
      },
    ]);
    expect(endpoint.hostname.split('.')[1]).toBe(
      exportPolicy?.spec.egress[0].to[0].namespaceSelector.matchLabels['kubernetes.io/metadata.name'],
    );
  });

  it('would notice a variable missing from a ConfigMap (the check above is not vacuous)', () => {
    const maps = structuredClone(ofKind('ConfigMap'));
    delete maps.find((c) => c.metadata.name === 'decor-common')?.data.KAFKA_BROKERS;
    const { env } = containerEnv(containerOf('user'), maps);
    expect(() => loadConfig(userConfigSchema, env)).toThrow(
      'KAFKA_BROKERS is required when NODE_ENV=production',
    );
  });

  it('agrees with docker-compose.yml: the same processes, variables, ports and databases', () => {
    const composeProcesses = Object.entries(compose.services)
      .filter(([, s]) => s.build)
      .map(([name]) => name);
    expect(composeProcesses.sort()).toEqual(PROCESSES.map((p) => p.name).sort());
    const AGREED =
      /^(NODE_ENV|PORT|WORKER_PORT|INTERNAL_PORT|MONGO_DB|ENTRY|KAFKA_TOPIC_PREFIX|REDIS_PREFIX|\w+_SERVICE_URL)$/;
    // compose's `${VAR:-default}`: what it is when the operator sets nothing, as the base's value.
    const composeDefault = (v: string) => /^\$\{\w+:-(.*)\}$/.exec(v)?.[1] ?? v;
    for (const p of PROCESSES) {
      const { env } = containerEnv(containerOf(p.name), ofKind('ConfigMap'));
      const composeEnv = Object.fromEntries(
        Object.entries((compose.services[p.name]?.environment ?? {}) as Obj).map(([k, v]) => [k, String(v)]),
      );
      expect({ name: p.name, names: Object.keys(env).sort() }).toEqual({
        name: p.name,
        names: Object.keys(composeEnv).sort(),
      });
      const agreed = (e: Record<string, string>) =>
        Object.fromEntries(Object.entries(e).filter(([k]) => AGREED.test(k)));
      expect({ name: p.name, values: agreed(env) }).toEqual({ name: p.name, values: agreed(composeEnv) });
      // Tracing: the same settings, off unless an endpoint is given, the same share sampled.
      const tracing = (e: Record<string, string>) =>
        Object.fromEntries(TRACING_SET.map((k) => [k, composeDefault(e[k] ?? '')]));
      expect({ name: p.name, tracing: tracing(env) }).toEqual({ name: p.name, tracing: tracing(composeEnv) });
    }
    const healthcheck = JSON.stringify(compose.services.gateway?.healthcheck?.test);
    expect(healthcheck).toContain(`:${GATEWAY.internalPort}/readyz`);
  });

  it('lets the ingress reach only the gateway, and the gateway only the services', () => {
    const policies = ofKind('NetworkPolicy');
    const deny = named('NetworkPolicy', 'decor-default-deny');
    expect(deny?.spec).toEqual({
      podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'decor' } },
      policyTypes: ['Ingress', 'Egress'],
    });
    const INGRESS_NAMESPACE = {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
    };
    const FROM_GATEWAY = { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } };
    for (const p of PROCESSES) {
      const labels = deploymentOf(p.name).spec.template.metadata.labels;
      expect(labels['app.kubernetes.io/part-of']).toBe('decor');
      const applying = policies.filter((np) =>
        Object.entries(np.spec.podSelector.matchLabels ?? {}).every(([k, v]) => labels[k] === v),
      );
      const ingress = applying.flatMap((np) => np.spec.ingress ?? []);
      const expected =
        p.name === 'gateway'
          ? [{ from: [INGRESS_NAMESPACE], ports: [{ protocol: 'TCP', port: GATEWAY.port }] }]
          : p.entry === 'worker'
            ? []
            : [{ from: [FROM_GATEWAY], ports: [{ protocol: 'TCP', port: 'http' }] }];
      expect({ name: p.name, ingress }).toEqual({ name: p.name, ingress: expected });
    }
  });

  it('lets each process reach only Kafka, MongoDB, Redis, S3, SMTP and QuickBooks (and DNS)', () => {
    const DNS = 53;
    const [KAFKA, MONGO, REDIS, HTTPS, SUBMISSION, SMTPS] = [9092, 27017, 6379, 443, 587, 465];
    const store = [KAFKA, MONGO, REDIS];
    const EXPECTED: Record<string, number[]> = {
      gateway: [...SERVICES.map((s) => s.port), REDIS, KAFKA],
      user: store,
      catalogue: [...store, HTTPS],
      cart: store,
      order: store,
      'accounting-sync': [...store, HTTPS],
      notification: store,
      'notification-worker': [REDIS, SUBMISSION, SMTPS],
    };
    expect(Object.keys(EXPECTED).sort()).toEqual(PROCESSES.map((p) => p.name).sort());
    const policies = ofKind('NetworkPolicy');
    for (const p of PROCESSES) {
      const labels = deploymentOf(p.name).spec.template.metadata.labels;
      const rules = policies
        .filter((np) =>
          Object.entries(np.spec.podSelector.matchLabels ?? {}).every(([k, v]) => labels[k] === v),
        )
        .flatMap((np) => np.spec.egress ?? []);
      const ports = rules.flatMap((rule: Obj) => rule.ports.map((port: Obj) => port.port as number));
      expect({ name: p.name, ports: [...new Set(ports)].sort() }).toEqual({
        name: p.name,
        ports: [...new Set([...(EXPECTED[p.name] as number[]), DNS])].sort(),
      });
      // The services' ports only towards the services' pods.
      for (const rule of rules) {
        if (rule.ports.some((port: Obj) => SERVICES.some((s) => s.port === port.port))) {
          expect(rule.to).toEqual([{ podSelector: { matchLabels: { 'decor/role': 'service' } } }]);
        }
      }
    }
  });

  it('gives the example overlay what the base leaves to it (images, secrets, patches)', () => {
    const k = kustomization(OVERLAY);
    const images = new Set((k.images as Obj[]).map((i) => i.name));
    for (const p of PROCESSES) expect(images.has(containerOf(p.name).image)).toBe(true);
    const generated = (k.secretGenerator as Obj[]).map((g) => g.name).sort();
    expect(generated).toEqual(['decor-infra-secrets', 'decor-secrets']);
    for (const g of k.secretGenerator as Obj[]) {
      for (const file of g.envs as string[])
        expect(existsSync(path.join(OVERLAY, `${file}.example`))).toBe(true);
    }
    // The infrastructure's passwords, by reference from its own resources.
    const infraKeys = envFileKeys(path.join(OVERLAY, 'infra-secrets.env.example'));
    const text = overlay.map((m) => JSON.stringify(m.obj)).join('\n');
    const refs = [...text.matchAll(/"name":"decor-infra-secrets","key":"(\w+)"/g)].map((m) => m[1]);
    expect([...new Set(refs)].sort()).toEqual(infraKeys.sort());
    // The HPA patch names a base autoscaler and keeps its CPU metric.
    const hpaPatch = yamlDocs(path.join(OVERLAY, 'worker-queue-depth.yaml'))[0] as Obj;
    expect(named('HorizontalPodAutoscaler', hpaPatch.metadata.name)).toBeDefined();
    expect(hpaPatch.spec.metrics.map((m: Obj) => m.type)).toEqual(['Resource', 'External']);
  });

  // kustomize itself, where a kubectl is installed (it carries kustomize): the overlay builds, with the
  // Secrets generated from the .example files (in a copy), and every reference follows their names.
  const kubectl = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'kubectl'))
    .find((file) => existsSync(file));
  (kubectl ? it : it.skip)('builds with kustomize (kubectl kustomize), every name reference resolved', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'decor-k8s-'));
    try {
      cpSync(K8S, copy, { recursive: true });
      const overlayCopy = path.join(copy, 'overlays/example');
      for (const file of ['secrets.env', 'infra-secrets.env']) {
        cpSync(path.join(overlayCopy, `${file}.example`), path.join(overlayCopy, file));
      }
      const built = parseAllDocuments(
        execFileSync(kubectl as string, ['kustomize', overlayCopy], { encoding: 'utf8' }),
      ).map((d) => d.toJS() as Obj);
      const secret = built.find((o) => o.kind === 'Secret' && o.metadata.name.startsWith('decor-secrets-'));
      expect(secret).toBeDefined();
      for (const o of built.filter((o) => o.kind !== 'Namespace')) expect(o.metadata.namespace).toBe('decor');
      for (const d of built.filter((o) => o.kind === 'Deployment')) {
        const container = d.spec.template.spec.containers[0];
        expect(container.image).toMatch(/^registry\.example\/decor\/[\w-]+:1\.0\.0$/);
        for (const env of container.env) {
          if (env.valueFrom?.secretKeyRef)
            expect(env.valueFrom.secretKeyRef.name).toBe(secret?.metadata.name);
        }
      }
      const common = built.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'decor-common');
      expect(common?.data.KAFKA_BROKERS).toBe('decor-kafka-kafka-bootstrap:9092');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
