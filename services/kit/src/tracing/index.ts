export { sampleRatio, TRACING_ENV, tracingExporterFrom, tracingSettingProblems } from './config';
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
