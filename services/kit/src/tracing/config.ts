/**
 * When a process traces, and under which name. Read from the environment once, at the kit's first
 * import (instrumentations must patch mongodb, ioredis, http… before they are required), so this is
 * not part of the services' validated config.
 *   TRACING_ZIPKIN_URL           spans to a Zipkin server (`npm start -- --tracing` sets it)
 *   OTEL_EXPORTER_OTLP_ENDPOINT  or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: spans over OTLP/HTTP (production)
 *   OTEL_TRACES_SAMPLER_ARG      the share of the gateway's requests traced, e.g. 0.1 (default 1: all)
 *   OTEL_SERVICE_NAME            the process's name in traces (default: from its entry file)
 *   OTEL_BSP_SCHEDULE_DELAY      ms between batches of spans sent (OTel's default 5000)
 * Neither endpoint set: no SDK is loaded at all, and the kit's spans are no-ops.
 */
import path from 'node:path';

/** Every variable the kit's tracing reads (deployment files set them or leave them to the defaults). */
export const TRACING_ENV = [
  'TRACING_ZIPKIN_URL',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_SERVICE_NAME',
  'OTEL_BSP_SCHEDULE_DELAY',
] as const;

/** OTEL_TRACES_SAMPLER_ARG as the share of requests the gateway traces (default: all). */
export function sampleRatio(arg: string | undefined): number {
  const ratio = arg === undefined || arg === '' ? 1 : Number(arg);
  return Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 1;
}

/**
 * What is wrong with these tracing settings (none: empty), for the deployment files' tests: the
 * SDK itself never refuses to start over tracing, it falls back (all sampled, no export).
 */
export function tracingSettingProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const key of [
    'TRACING_ZIPKIN_URL',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  ]) {
    const v = env[key];
    if (v && !/^https?:\/\/[^/\s]+/.test(v)) problems.push(`${key} must be an http(s) URL`);
  }
  const arg = env.OTEL_TRACES_SAMPLER_ARG;
  if (arg !== undefined && arg !== '' && !(Number(arg) >= 0 && Number(arg) <= 1))
    problems.push('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  // The kit sets its own sampler (the gateway decides, the services follow): this one is ignored.
  if (env.OTEL_TRACES_SAMPLER) problems.push('OTEL_TRACES_SAMPLER has no effect: the gateway samples');
  return problems;
}

export type TracingExporter = { kind: 'zipkin'; url: string } | { kind: 'otlp' };

export function tracingExporterFrom(env: NodeJS.ProcessEnv): TracingExporter | undefined {
  if (env.TRACING_ZIPKIN_URL) return { kind: 'zipkin', url: env.TRACING_ZIPKIN_URL };
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return { kind: 'otlp' };
  return undefined;
}

/**
 * `gateway/src/main.ts` → gateway, `services/order/dist/main.js` → order,
 * `services/notification/src/worker.ts` → notification-worker.
 */
export function tracedProcessName(env: NodeJS.ProcessEnv, entry = process.argv[1] ?? ''): string {
  if (env.OTEL_SERVICE_NAME) return env.OTEL_SERVICE_NAME;
  const parts = entry.split(path.sep);
  const file = path.basename(entry).replace(/\.[cm]?[jt]s$/, '');
  const dir = parts.at(-3) ?? 'process';
  return file === 'worker' ? `${dir}-worker` : dir;
}
