import type { ConsumerHandle, ConsumerHealth } from './consumer';
import type { Publisher } from './kafka';
import type { OutboxRelay, RelayHealth } from './outbox';

export interface KafkaReadiness {
  ready: boolean;
  producerConnected?: boolean;
  consumers: ConsumerHealth[];
  relays: RelayHealth[];
}

/**
 * Kafka part of /readyz: the producer is connected, every consumer is in its group (not crashed,
 * stopped or restarting) and every outbox relay's last round succeeded. Pass what the service has.
 */
export function kafkaReadiness(parts: {
  publisher?: Publisher;
  consumers?: ConsumerHandle[];
  relays?: OutboxRelay[];
}): KafkaReadiness {
  const consumers = (parts.consumers ?? []).map((c) => c.health());
  const relays = (parts.relays ?? []).map((r) => r.health());
  const producerConnected = parts.publisher?.isConnected();
  const ready =
    producerConnected !== false && consumers.every((c) => c.healthy) && relays.every((r) => r.healthy);
  return { ready, producerConnected, consumers, relays };
}
