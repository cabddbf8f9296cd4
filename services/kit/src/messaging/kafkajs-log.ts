import { type logCreator, logLevel } from 'kafkajs';
import type { KitLogger } from './log';

// kafkajs' table of Kafka's error codes (not in its typings): which answers it retries by itself.
const { errorCodes } = require('kafkajs/src/protocol/error.js') as {
  errorCodes: { message: string; retriable: boolean }[];
};
/**
 * Answers kafkajs logs at ERROR and then handles: the retriable ones it tries again, and a CreateTopics
 * answer, whose "already exists" (another process created it first, every first start) its
 * createTopics counts as success and any other error throws to the caller.
 */
const HANDLED = new Set([
  ...errorCodes.filter((c) => c.retriable).map((c) => c.message),
  'Topic creation errors',
]);

/**
 * A broker slow to accept a connection (kafkajs' connectionTimeout, 1 s: a loaded machine's first
 * start) is logged at ERROR by the connection and again by the pool that then retries it.
 */
const CONNECT_TIMEOUT = 'Connection timeout';

/**
 * A member the group's coordinator dropped (its session ran out: the process or the machine stalled
 * past the session timeout). kafkajs re-joins by itself and the group's partitions are handed out
 * again, so nothing is lost (events are applied once per group however often they arrive). The
 * stall is worth one warning (the runner's line); the Heartbeat answers that report it are debug.
 */
const DROPPED_MEMBER = 'The coordinator is not aware of this member';

/** The answer kafkajs logs at ERROR and then retries by itself, or undefined. */
function retriedAnswer(message: string, error: string | undefined): string | undefined {
  if (error && HANDLED.has(error)) return error;
  if (message === CONNECT_TIMEOUT || message.endsWith(`broker from the list: ${CONNECT_TIMEOUT}`))
    return CONNECT_TIMEOUT;
  return undefined;
}

/** A retriable answer repeated for this long is no longer a moment's wait: it is worth a warning. */
export const RETRIABLE_PERSISTS_MS = 30_000;
/** A pause this long between two such answers ends their streak (kafkajs' retries come sooner). */
const STREAK_GAP_MS = 15_000;

interface Streak {
  since: number;
  last: number;
  count: number;
  warned: boolean;
}

/**
 * kafkajs' own logs into our pino logger. Its INFO lines (joins, commits) are routine: pino `debug`.
 * It logs each retriable refusal (a topic not hosted yet, a coordinator still loading — every first
 * start while topics are created) and a connection the broker was slow to accept at ERROR before
 * retrying it, and a topic another process created first; those are `debug` unless the same answer
 * keeps coming for RETRIABLE_PERSISTS_MS, which is one `warn`. A member dropped from its group and
 * re-joining is one `warn` (DROPPED_MEMBER). A retry that runs out, or a topic that could not be
 * created, still fails the caller, who reports it; any other kafkajs ERROR or WARN
 * keeps its level.
 */
export function kafkajsLogCreator(log: KitLogger, now: () => number = Date.now): logCreator {
  return () => {
    const streaks = new Map<string, Streak>();
    return ({ namespace, level, log: { message, timestamp: _ts, logger: _logger, ...extra } }) => {
      const fields = { namespace, ...extra };
      const error = typeof extra.error === 'string' ? extra.error : undefined;
      if (level === logLevel.ERROR && error === DROPPED_MEMBER) {
        if (namespace === 'Connection') log.debug(fields, message);
        else log.warn(fields, message);
        return;
      }
      const retried = level === logLevel.ERROR ? retriedAnswer(message, error) : undefined;
      if (retried) {
        const key = `${String(extra.broker ?? namespace)} ${retried}`;
        const t = now();
        let streak = streaks.get(key);
        if (!streak || t - streak.last > STREAK_GAP_MS) {
          streak = { since: t, last: t, count: 0, warned: false };
          streaks.set(key, streak);
        }
        streak.last = t;
        streak.count += 1;
        if (!streak.warned && t - streak.since >= RETRIABLE_PERSISTS_MS) {
          streak.warned = true;
          const seconds = Math.round((t - streak.since) / 1000);
          log.warn(
            { ...fields, times: streak.count },
            `${message}: Kafka still answers this after ${seconds} s`,
          );
        } else log.debug(fields, message);
        return;
      }
      if (level === logLevel.ERROR) log.error(fields, message);
      else if (level === logLevel.WARN) log.warn(fields, message);
      else if (level === logLevel.INFO) log.debug(fields, message);
      else log.trace(fields, message);
    };
  };
}
