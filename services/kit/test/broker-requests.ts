/**
 * Counts the requests kafkajs' Broker sends through one of its methods (the one place every client's
 * requests pass), by a key `classify` gives each call (undefined: not counted), until `stop()`.
 */
type BrokerMethod = 'fetch' | 'metadata';

export function countBrokerRequests<A>(
  method: BrokerMethod,
  classify: (arg: A) => string | undefined,
): { counts: Record<string, number>; stop(): void } {
  // kafkajs exports no types for its internals; the path is the one its own client requires.
  const Broker = require('kafkajs/src/broker/index.js') as {
    prototype: Record<BrokerMethod, (arg: A) => Promise<unknown>>;
  };
  const original = Broker.prototype[method];
  const counts: Record<string, number> = {};
  Broker.prototype[method] = function counted(arg: A) {
    const key = classify(arg);
    if (key !== undefined) counts[key] = (counts[key] ?? 0) + 1;
    return original.call(this, arg);
  };
  return {
    counts,
    stop: () => {
      Broker.prototype[method] = original;
    },
  };
}
