import { UNAVAILABLE_MESSAGES, type UnavailableDependency } from '@decor/contracts';
import { HttpError } from './errors';

/**
 * A server this service depends on did not answer in time: answered 503 with the dependency's
 * message (and `Retry-After`), so a client is told to try again instead of seeing a 500 or a hang.
 */
export class DependencyUnavailableError extends HttpError {
  readonly dependency: UnavailableDependency;

  constructor(dependency: UnavailableDependency, options?: { cause?: unknown }) {
    super(503, UNAVAILABLE_MESSAGES[dependency], { 'retry-after': '5' });
    this.name = 'DependencyUnavailableError';
    this.dependency = dependency;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** The driver errors that mean "the server is out of reach", not "the request is wrong". */
const MONGO_UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoServerClosedError',
]);

/** ioredis has classes for few of these; its messages are stable across 5.x and 6.x. */
const REDIS_UNREACHABLE = [
  /^Command timed out$/,
  /^Connection is closed\.$/,
  /^Stream isn't writeable/,
  /^Reached the max retries per request limit/,
];

/** Socket errors a driver sometimes passes on unwrapped (the mongodb driver writing to a closed socket). */
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH']);
const DRIVER_IN_STACK: [RegExp, UnavailableDependency][] = [
  [/[\\/]node_modules[\\/]mongo(db|ose)[\\/]/, 'database'],
  [/[\\/]node_modules[\\/](ioredis|bullmq)[\\/]/, 'jobs'],
  [/[\\/]node_modules[\\/]kafkajs[\\/]/, 'events'],
];

/**
 * Which dependency an error says is out of reach, if any: Mongo, Redis or Kafka driver errors
 * (thrown on a request path when the server is down or too slow) map to a 503 instead of a 500.
 */
export function unavailableDependency(error: unknown): UnavailableDependency | undefined {
  if (error instanceof DependencyUnavailableError) return error.dependency;
  const err = (error ?? {}) as { name?: unknown; message?: unknown };
  const name = typeof err.name === 'string' ? err.name : '';
  const message = typeof err.message === 'string' ? err.message : '';
  if (MONGO_UNREACHABLE.has(name)) return 'database';
  // mongoose's own wait for a connection (when commands are buffered) ran out.
  if (name === 'MongooseError' && /buffering timed out/.test(message)) return 'database';
  if (name === 'MaxRetriesPerRequestError' || REDIS_UNREACHABLE.some((r) => r.test(message))) return 'jobs';
  if (name.startsWith('KafkaJS')) return 'events';
  const { code, stack } = (error ?? {}) as { code?: unknown; stack?: unknown };
  if (typeof code === 'string' && SOCKET_CODES.has(code) && typeof stack === 'string') {
    return DRIVER_IN_STACK.find(([driver]) => driver.test(stack))?.[1];
  }
  return undefined;
}

/**
 * Runs `work` but gives up after `ms`: rejects with DependencyUnavailableError(dependency). The
 * work itself is not cancelled (drivers offer no way); its late failure is swallowed.
 */
export async function withinMs<T>(
  work: Promise<T>,
  ms: number,
  dependency: UnavailableDependency,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DependencyUnavailableError(dependency)), ms);
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, late]);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const down = unavailableDependency(err);
    if (down) throw new DependencyUnavailableError(down, { cause: err });
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
