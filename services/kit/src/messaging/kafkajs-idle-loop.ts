/**
 * kafkajs 2.2.4 (the last release) re-arms a timer on every broker connection each millisecond for as
 * long as the connection lives, with nothing to send: `scheduleCheckPendingRequests` computes its
 * delay from `throttledUntil` (-1 unless the broker throttled us), gets a negative number, and
 * schedules the next check anyway (tulios/kafkajs#1556, #1704; the cause of Node's
 * TimeoutNegativeWarning). Every process with a Kafka client woke about a thousand times a second:
 * 0.028 of a core per idle service here, against 0.017 without the loop.
 *
 * The fix proposed upstream (#1667, #1768's review; merged in the Charon fork) schedules a check only
 * when one is owed: requests are waiting, or the broker's throttle is still running. Requests that can
 * go at once are sent by `push`, and a full in-flight window is drained when an answer arrives, so
 * nothing waits on the removed wake-ups.
 */

/** The parts of kafkajs' request queue the fix (and its test) use. */
export interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

// kafkajs exports no types for its internals; the path is the one its own Connection requires.
export const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
  prototype: RequestQueueInternals;
};

const original = RequestQueue.prototype.scheduleCheckPendingRequests;
let applied = false;

/** Stops the idle wake-ups for every kafkajs client of this process; safe to call more than once. */
export function stopKafkajsIdleLoop(): void {
  if (applied) return;
  applied = true;
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleWhenOwed(
    this: RequestQueueInternals,
  ) {
    const throttled = this.throttledUntil > Date.now();
    if (this.pending.length === 0 && !throttled) return;
    original.call(this);
  };
}
