import pino, { type LogFn } from 'pino';

/**
 * The logger shape the messaging and jobs helpers need. Both a pino logger and Fastify's
 * `app.log` satisfy it, so a service passes whichever it has.
 */
export interface KitLogger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): KitLogger;
}

/** Used when a caller passes no logger: nothing is printed, nothing breaks. */
export const silentLogger: KitLogger = pino({ level: 'silent' });
