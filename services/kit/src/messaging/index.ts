export { type CatchUpOptions, waitForCatchUp } from './catch-up';
export {
  type ApplyOnceOptions,
  appliedEventsPlugin,
  applyOnce,
  CONSUMER_PROGRESS_COLLECTION,
  type ConsumerHandle,
  type ConsumerHealth,
  type ConsumerState,
  DLQ_HEADERS,
  type EventContext,
  type EventHandler,
  type EventHandlerOptions,
  eventHandler,
  PermanentEventError,
  PROCESSED_EVENTS_COLLECTION,
  type ProcessedRecord,
  type StartConsumerOptions,
  startConsumer,
} from './consumer';
export { type KafkaReadiness, kafkaReadiness } from './health';
export {
  type CreateKafkaOptions,
  type CreatePublisherOptions,
  createKafka,
  createPublisher,
  dlqTopicFor,
  type EnsureTopicsOptions,
  EVENT_HEADERS,
  ensureTopics,
  type Publisher,
  publishEnvelopes,
  toMessage,
  topicEndOffsets,
  topicFor,
} from './kafka';
export { type KitLogger, silentLogger } from './log';
export {
  InvalidEventError,
  MAX_EVENT_BYTES,
  newEvent,
  type OutboxFields,
  OutboxRelay,
  type OutboxRelayOptions,
  outboxPlugin,
  type RelayHealth,
} from './outbox';
export {
  eventsPushed,
  MAX_PENDING_EVENTS,
  OutboxFullError,
  outboxHasRoom,
  roomCondition,
  updateOneWithEvents,
} from './outbox-cap';
export {
  type OwnGroupConsumer,
  type OwnGroupConsumerOptions,
  type PartitionOffset,
  startOwnGroupConsumer,
} from './own-group-consumer';
export { fetchTopicOffsets, type TopicOffsets } from './topic-offsets';
