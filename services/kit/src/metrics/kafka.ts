import { Counter, Gauge, type Registry } from 'prom-client';
import { metricOf } from './registry';

export type HandledOutcome = 'applied' | 'skipped' | 'dead-lettered';

/** What one consumer (one group in one process) reports; `startConsumer` feeds it. */
export interface ConsumerMetrics {
  /** An event is behind us: handled, skipped (no handler, or already processed) or dead-lettered. */
  handled(type: string, outcome: HandledOutcome): void;
  /** kafkajs started a batch (START_BATCH_PROCESS): the partition's high watermark and where the batch starts. */
  batchStarted(
    topic: string,
    partition: number,
    highWatermark: string,
    firstOffset: string | null,
    lastOffset: string,
  ): void;
  /** The message at `offset` is behind us. */
  processed(topic: string, partition: number, offset: string): void;
  /** The partitions this member holds now (a rebalance drops the others' lag series). */
  assigned(assignment: Record<string, number[]>): void;
  /** The consumer stopped: its lag series go. */
  stop(): void;
}

interface PartitionPosition {
  topic: string;
  partition: number;
  /** Offset the next message written to the partition gets (kafkajs' highWatermark of the last fetch). */
  highWatermark: number;
  /** Last offset behind us. */
  processed: number;
}

type LagSource = () => Iterable<{ group: string; position: PartitionPosition }>;

interface RegistryConsumerMetrics {
  handled: Counter<'group' | 'type' | 'outcome'>;
  lagSources: Set<LagSource>;
}

const perRegistry = new WeakMap<Registry, RegistryConsumerMetrics>();

function metricsOf(registry: Registry): RegistryConsumerMetrics {
  const existing = perRegistry.get(registry);
  if (existing) return existing;
  const lagSources = new Set<LagSource>();
  const handled = metricOf(
    registry,
    'kafka_events_handled_total',
    () =>
      new Counter({
        name: 'kafka_events_handled_total',
        help: 'Kafka events behind a consumer group, by event type and outcome (applied, skipped, dead-lettered)',
        labelNames: ['group', 'type', 'outcome'],
        registers: [registry],
      }),
  );
  metricOf(
    registry,
    'kafka_consumer_lag',
    () =>
      new Gauge({
        name: 'kafka_consumer_lag',
        help: 'Messages on a partition this process holds that its consumer group has not handled yet (high watermark of the last fetch minus the next offset to handle)',
        labelNames: ['group', 'topic', 'partition'],
        registers: [registry],
        collect() {
          this.reset();
          for (const source of lagSources) {
            for (const { group, position: p } of source()) {
              this.set(
                { group, topic: p.topic, partition: String(p.partition) },
                Math.max(0, p.highWatermark - p.processed - 1),
              );
            }
          }
        },
      }),
  );
  const created = { handled, lagSources };
  perRegistry.set(registry, created);
  return created;
}

/**
 * Metrics of one consumer group member:
 * - `kafka_events_handled_total{group, type, outcome}`;
 * - `kafka_consumer_lag{group, topic, partition}` for the partitions this member holds, from the
 *   high watermark kafkajs reports with every fetched batch and the offsets handled since: no broker
 *   call at scrape time. A partition with nothing fetched yet has no series; an idle one reads 0 once
 *   its last batch is handled, and rises again with the next fetch that brings new messages.
 */
export function consumerMetrics(registry: Registry, group: string): ConsumerMetrics {
  const shared = metricsOf(registry);
  const positions = new Map<string, PartitionPosition>();
  const key = (topic: string, partition: number) => `${topic}|${partition}`;
  const source: LagSource = function* () {
    for (const position of positions.values()) yield { group, position };
  };
  shared.lagSources.add(source);
  return {
    handled: (type, outcome) => shared.handled.inc({ group, type, outcome }),
    batchStarted: (topic, partition, highWatermark, firstOffset, lastOffset) => {
      // A batch of only control records has no first offset; kafkajs resolves it up to its last one.
      const processed = firstOffset === null ? Number(lastOffset) : Number(firstOffset) - 1;
      positions.set(key(topic, partition), {
        topic,
        partition,
        highWatermark: Number(highWatermark),
        processed,
      });
    },
    processed: (topic, partition, offset) => {
      const position = positions.get(key(topic, partition));
      if (position) position.processed = Math.max(position.processed, Number(offset));
    },
    assigned: (assignment) => {
      for (const [k, p] of positions) if (!assignment[p.topic]?.includes(p.partition)) positions.delete(k);
    },
    stop: () => {
      shared.lagSources.delete(source);
      positions.clear();
    },
  };
}
