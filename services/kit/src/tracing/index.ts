export {
  contextFromTraceparent,
  currentTraceId,
  currentTraceparent,
  flushTracing,
  inSpan,
  SpanKind,
  startSpan,
  TRACEPARENT_HEADER,
  traceLogMixin,
} from './context';
