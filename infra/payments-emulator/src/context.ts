/** What every handler shares: the store and the event sink (webhooks.ts). */
import type { Obj, Store } from './store';

export interface EventSink {
  /** Records an event of `type` about a snapshot of `object` and queues its deliveries. */
  emit(type: string, object: Obj, account: string): void;
}

export interface Ctx {
  store: Store;
  events: EventSink;
}

/** A copy of an object as it is now (events and replays must not change with it). */
export const snapshot = <T>(value: T): T => structuredClone(value);
