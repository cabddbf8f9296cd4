import type { Static, TSchema } from '@sinclair/typebox';

/** Every event on the bus travels in this envelope; `payload` is the event's own contract. */
export interface EventEnvelope<P = unknown> {
  /** Unique per event (UUID); consumers remember it to apply each event once. */
  id: string;
  type: string;
  version: number;
  /** Aggregate kind; also names the topic, so one aggregate's events stay in one ordered stream. */
  aggregateType: AggregateType;
  /** Kafka message key: all events of one aggregate land on one partition, in order. */
  aggregateId: string;
  occurredAt: string;
  /** Carries the HTTP request id (or the causing event's correlation id) across services. */
  correlationId: string;
  /**
   * W3C trace context of the operation that wrote the event (absent with tracing off): the relay
   * sends the event long after that request, and the consumers' spans continue its trace.
   */
  traceparent?: string;
  payload: P;
}

/**
 * `user-email`: the user service's e-mail requests (resets, welcomes), keyed by the user like its
 * other events but on a topic of their own. Only the notification service reads them, while every
 * process reads `user` (ended sessions, caches): on `user`, each reset was fetched by ten groups.
 */
export const AGGREGATE_TYPES = [
  'user',
  'user-email',
  'catalogue',
  'cart',
  'order',
  'accounting',
  'notification',
] as const;
export type AggregateType = (typeof AGGREGATE_TYPES)[number];

export interface EventContract<T extends string = string, S extends TSchema = TSchema> {
  type: T;
  version: number;
  aggregateType: AggregateType;
  payload: S;
}

export function defineEvent<T extends string, S extends TSchema>(
  type: T,
  version: number,
  aggregateType: AggregateType,
  payload: S,
): EventContract<T, S> {
  return { type, version, aggregateType, payload };
}

export type PayloadOf<C> = C extends EventContract<string, infer S> ? Static<S> : never;
