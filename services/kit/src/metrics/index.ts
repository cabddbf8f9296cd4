export { Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
export {
  METRICS_PATH,
  type MetricsPluginOptions,
  metricsHandler,
  metricsPlugin,
  UNMATCHED_ROUTE,
} from './http';
export { type ConsumerMetrics, consumerMetrics, type HandledOutcome } from './kafka';
export {
  type CountableQueue,
  QUEUE_METRIC_STATES,
  type QueueMetricState,
  type QueueMetricsOptions,
  queueJobCounts,
  registerQueueMetrics,
} from './queues';
export { createMetricsRegistry, metricOf } from './registry';
