/**
 * Starts OpenTelemetry's Node SDK for this process. Loaded (required) only when tracing is
 * configured, so a process without it never even loads the SDK. Instrumented: incoming and outgoing
 * HTTP (the gateway's proxying, service-to-service calls; SMTP is not HTTP), undici (fetch),
 * MongoDB and ioredis. Not @fastify/otel: its span per hook per plugin (a dozen a request at the
 * gateway) cost more throughput than the goal allows (infra/bench/tracing-cost.md), and the HTTP
 * server span already brackets the request. Client spans only inside a traced operation: the outbox
 * relay's polling and BullMQ's Redis loop would otherwise make a root trace every few milliseconds.
 * Kafka is not instrumented by kafkajs' instrumentation: the relay sends many requests' events in
 * one batch, long after the request, so the kit carries each event's own trace (context.ts).
 */
import type { IncomingMessage } from 'node:http';
import { context, type TextMapPropagator, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
} from '@opentelemetry/sdk-trace';
import { sampleRatio, type TracingExporter, tracedProcessName } from './config';
import { contextFromTraceparent, currentTraceparent, markTracingActive, TRACEPARENT_HEADER } from './context';
import { SecretRedactingProcessor } from './redaction';

/** Probes and scrapes: a span each would bury the real traffic. */
const QUIET = /^\/(healthz|readyz|metrics)(\?|$)/;

/**
 * W3C trace context, except that the public edge (the gateway) starts its own traces: a browser's
 * `traceparent` could otherwise choose trace ids and force every request to be sampled.
 */
function propagator(edge: boolean): TextMapPropagator {
  return {
    inject(ctx, carrier, setter) {
      const tp = currentTraceparent(ctx);
      if (tp) setter.set(carrier, TRACEPARENT_HEADER, tp);
    },
    extract(ctx, carrier, getter) {
      if (edge) return ctx;
      const v = getter.get(carrier, TRACEPARENT_HEADER);
      return contextFromTraceparent(Array.isArray(v) ? v[0] : v, ctx);
    },
    fields: () => [TRACEPARENT_HEADER],
  };
}

/** No span of ours is recording here: a call made now would only carry a trace nobody keeps. */
const untraced = (): boolean => !trace.getSpan(context.active())?.isRecording();

let sdk: NodeSDK | undefined;

export function startTracing(exporter: TracingExporter, env: NodeJS.ProcessEnv = process.env): NodeSDK {
  if (sdk) return sdk;
  const serviceName = tracedProcessName(env);
  const edge = serviceName === 'gateway';
  // Traces begin at the edge only, which samples before any span exists: a request sampled out
  // costs no span, context or header anywhere (a sampler would still make a span of each, and the
  // services would carry its context along). Past the edge the parent decides, and a service never
  // starts a trace: a request that arrives untraced gets a non-recording span from the HTTP
  // instrumentation, which passes the Mongo and Redis instrumentations' requireParentSpan, so with
  // OTel's default sampler (parentbased_always_on) each of its Mongo reads and Redis calls became a
  // trace of its own, recorded and exported — at 10 % the user service traced every request
  // (span-census.ts: 300 GETs, 570 traces).
  const sampler = new ParentBasedSampler({ root: edge ? new AlwaysOnSampler() : new AlwaysOffSampler() });
  const ratio = sampleRatio(env.OTEL_TRACES_SAMPLER_ARG);
  sdk = new NodeSDK({
    serviceName,
    autoDetectResources: false,
    metricReaders: [],
    logRecordProcessors: [],
    textMapPropagator: propagator(serviceName === 'gateway'),
    sampler,
    // Secrets out of URLs first, then the export (a batch per OTEL_BSP_SCHEDULE_DELAY).
    spanProcessors: [
      new SecretRedactingProcessor(),
      new BatchSpanProcessor({
        exporter:
          exporter.kind === 'zipkin'
            ? new ZipkinExporter({ url: exporter.url, serviceName })
            : new OTLPTraceExporter(),
        // OTel's own variable, as the SDK reads it when it builds the processor itself.
        ...(Number(env.OTEL_BSP_SCHEDULE_DELAY) >= 0 && env.OTEL_BSP_SCHEDULE_DELAY
          ? { scheduledDelayMillis: Number(env.OTEL_BSP_SCHEDULE_DELAY) }
          : {}),
      }),
    ],
    // What is not traced is ignored outright rather than given a non-recording span: the HTTP and
    // undici instrumentations compute a request's attributes before they look for a parent, and a
    // non-recording parent lets the Mongo instrumentation serialise every command (at 10 % this
    // cost more CPU per request than tracing all of them; infra/bench/tracing-cost.md). Ignored, a
    // request runs with tracing suppressed, and its Mongo and Redis calls find no parent at all.
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) =>
          QUIET.test(req.url ?? '') ||
          (edge ? Math.random() >= ratio : req.headers[TRACEPARENT_HEADER] === undefined),
        ignoreOutgoingRequestHook: untraced,
        requireParentforIncomingSpans: !edge,
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ ignoreRequestHook: untraced, requireParentforSpans: true }),
      new MongoDBInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  const started = sdk;
  markTracingActive(() => started.shutdown());
  return sdk;
}
