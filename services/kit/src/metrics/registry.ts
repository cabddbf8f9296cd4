import { collectDefaultMetrics, type Metric, Registry } from 'prom-client';

/**
 * The one metrics registry of a process: NOT prom-client's global one, so several services started
 * in one test process keep their own. Every series carries `service=<name>`; Node's default process
 * metrics (CPU, memory, event-loop lag, GC, handles) are collected into it.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** The registry's metric `name`, made by `make` the first time (consumers and queues share one per registry). */
export function metricOf<M extends Metric>(registry: Registry, name: string, make: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? make();
}
