/**
 * The kit's own seams in a trace: the W3C `traceparent` of the request that wrote an event (kept in
 * the outbox entry, sent as a Kafka header), of a job (kept in the job's options), and spans for
 * the relay's send, a consumer's handler and a job's run. With tracing off every helper here costs
 * one property read: no span is made and `fn` runs as is.
 */
import {
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api';

let active = false;
let flush: (() => Promise<void>) | undefined;
/** Called by sdk.ts once the SDK has started; `shutdown` sends what is still buffered. */
export function markTracingActive(shutdown: () => Promise<void>): void {
  active = true;
  flush = shutdown;
}

/** At a process's shutdown: sends the spans still buffered (a no-op with tracing off). */
export async function flushTracing(): Promise<void> {
  await flush?.().catch(() => {});
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
export const TRACEPARENT_HEADER = 'traceparent';

/** `00-<trace id>-<span id>-<flags>` of the active span, or undefined (none, or tracing off). */
export function currentTraceparent(ctx: Context = context.active()): string | undefined {
  if (!active) return undefined;
  const sc = trace.getSpanContext(ctx);
  if (!sc || !trace.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The trace id of a `traceparent` (a job's, an event's), or null: what staff search the viewer for. */
export function traceIdOf(traceparent: unknown): string | null {
  const m = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim()) : null;
  return m ? (m[1] as string) : null;
}

/** The context a `traceparent` continues (the root context if it is absent or malformed). */
export function contextFromTraceparent(traceparent: unknown, base: Context = context.active()): Context {
  const m = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim()) : null;
  if (!m || /^0+$/.test(m[1] as string) || /^0+$/.test(m[2] as string)) return base;
  return trace.setSpanContext(base, {
    traceId: m[1] as string,
    spanId: m[2] as string,
    traceFlags: Number.parseInt(m[3] as string, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/** The active trace id, for log lines. */
export function currentTraceId(): string | undefined {
  if (!active) return undefined;
  const sc = trace.getSpanContext(context.active());
  return sc && trace.isSpanContextValid(sc) ? sc.traceId : undefined;
}

/** pino `mixin`: every log line written inside a traced operation carries its `trace_id`. */
export function traceLogMixin(): Record<string, unknown> {
  const id = currentTraceId();
  return id ? { trace_id: id } : {};
}

const tracer = () => trace.getTracer('@decor/kit');

/**
 * Runs `fn` in a new span named `name`, a child of `parent` (a traceparent, e.g. from a Kafka header
 * or a job) or, without one, of the active span. Errors mark the span and pass on.
 */
export async function inSpan<T>(
  name: string,
  opts: { kind: SpanKind; parent?: string; attributes?: Record<string, string | number | boolean> },
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!active) return fn(undefined);
  const parentCtx = opts.parent === undefined ? context.active() : contextFromTraceparent(opts.parent);
  const span = tracer().startSpan(name, { kind: opts.kind, attributes: opts.attributes }, parentCtx);
  try {
    return await context.with(trace.setSpan(parentCtx, span), () => fn(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
    throw err;
  } finally {
    span.end();
  }
}

/**
 * A span whose end the caller decides (a send of many events ends at the batch's ack), and the
 * `traceparent` that continues it in another process. Undefined with tracing off.
 */
export function startSpan(
  name: string,
  opts: { kind: SpanKind; parent?: string; attributes?: Record<string, string | number | boolean> },
): { traceparent: string | undefined; end(err?: unknown): void } | undefined {
  if (!active) return undefined;
  const parentCtx = opts.parent === undefined ? context.active() : contextFromTraceparent(opts.parent);
  const span = tracer().startSpan(name, { kind: opts.kind, attributes: opts.attributes }, parentCtx);
  return {
    traceparent: currentTraceparent(trace.setSpan(parentCtx, span)),
    end(err) {
      if (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
      }
      span.end();
    },
  };
}

export { SpanKind };
