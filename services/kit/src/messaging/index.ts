export {
  createKafka,
  createPublisher,
  dlqTopicFor,
  ensureTopics,
  EVENT_HEADERS,
  publishEnvelopes,
  toMessage,
  topicFor,
  type CreateKafkaOptions,
  type CreatePublisherOptions,
  type EnsureTopicsOptions,
  type Publisher,
} from './kafka';
export {
  InvalidEventError,
  newEvent,
  OutboxRelay,
  outboxPlugin,
  type OutboxFields,
  type OutboxRelayOptions,
  type RelayHealth,
} from './outbox';
export {
  applyOnce,
  appliedEventsPlugin,
  DLQ_HEADERS,
  eventHandler,
  PermanentEventError,
  PROCESSED_EVENTS_COLLECTION,
  startConsumer,
  type ApplyOnceOptions,
  type ConsumerHandle,
  type ConsumerHealth,
  type ConsumerState,
  type EventContext,
  type EventHandler,
  type StartConsumerOptions,
} from './consumer';
export { kafkaReadiness, type KafkaReadiness } from './health';
export { silentLogger, type KitLogger } from './log';
