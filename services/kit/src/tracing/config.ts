/**
 * When a process traces, and under which name. Read from the environment once, at the kit's first
 * import (instrumentations must patch mongodb, ioredis, http… before they are required), so this is
 * not part of the services' validated config.
 *   TRACING_ZIPKIN_URL           spans to a Zipkin server (`npm start -- --tracing` sets it)
 *   OTEL_EXPORTER_OTLP_ENDPOINT  or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: spans over OTLP/HTTP (production)
 *   OTEL_TRACES_SAMPLER_ARG      the share of the gateway's requests traced, e.g. 0.1 (default 1: all)
 *   OTEL_SERVICE_NAME            the process's name in traces (default: from its entry file)
 * Neither endpoint set: no SDK is loaded at all, and the kit's spans are no-ops.
 */
import path from 'node:path';

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
