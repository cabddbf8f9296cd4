/**
 * `npm start` shows the services' pino JSON lines as short readable ones:
 *   {"level":30,"time":…,"service":"user","reqId":"r1","res":{"statusCode":200},"responseTime":3.2,"msg":"request completed"}
 *   → 14:02:11 INFO  request completed 200 3 ms [r1]
 * Anything that is not a pino line (Kafka, the mail catcher) passes through unchanged.
 * DECOR_LOG_FORMAT=json keeps the raw lines (the log files under <data>/logs always are raw).
 *
 * Which lines reach the terminal at all: see `worthShowing`.
 */

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const COLOURS: Record<string, number> = { WARN: 33, ERROR: 31, FATAL: 31 };
/** Already in the prefix or not worth a person's attention. */
const HIDDEN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'service',
  'msg',
  'reqId',
  'req',
  'res',
  'responseTime',
  'err',
]);

type Entry = Record<string, unknown> & { level: number; time?: number; msg?: string; reqId?: string };

function clock(time: number | undefined): string {
  const d = time ? new Date(time) : new Date();
  return d.toTimeString().slice(0, 8);
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function describeRequest(e: Entry): string {
  const req = e.req as { method?: string; url?: string } | undefined;
  const res = e.res as { statusCode?: number } | undefined;
  const parts: string[] = [];
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}`);
  if (res?.statusCode) parts.push(String(res.statusCode));
  if (typeof e.responseTime === 'number') parts.push(`${Math.round(e.responseTime)} ms`);
  return parts.join(' ');
}

export function readableLine(line: string, colour: boolean): string {
  if (process.env.DECOR_LOG_FORMAT === 'json' || !line.startsWith('{"level":')) return line;
  let e: Entry;
  try {
    e = JSON.parse(line) as Entry;
  } catch {
    return line;
  }
  const level = LEVELS[e.level] ?? String(e.level);
  const shownLevel =
    colour && COLOURS[level] ? `\x1b[${COLOURS[level]}m${level.padEnd(5)}\x1b[0m` : level.padEnd(5);
  const extra = Object.entries(e)
    .filter(([k, v]) => !HIDDEN.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${short(v)}`);
  const err = e.err as { message?: string; stack?: string } | undefined;
  const text = [e.msg ?? '', describeRequest(e), ...extra, e.reqId ? `[${e.reqId}]` : '']
    .filter((p) => p !== '')
    .join(' ');
  const errorText = err
    ? `\n    ${(e.level >= 50 && err.stack ? err.stack : (err.message ?? short(err))).replace(/\n/g, '\n    ')}`
    : '';
  return `${clock(e.time)} ${shownLevel} ${text}${errorText}`;
}

const WARN = 40;

/** The pino level of a service's line (`{"level":30,…`), or undefined for any other line. */
function pinoLevel(line: string): number | undefined {
  const m = /^\{"level":(\d+),/.exec(line);
  return m ? Number(m[1]) : undefined;
}

/**
 * Whether a service's output line goes to the terminal (every line goes to its log file). Quiet, the
 * default: a service's warnings and errors, and what is not a pino line (a crash's stack trace, a
 * warning of Node's); its info lines (requests, start-up steps) are in the log file. Verbose
 * (`npm start -- --verbose`): every line.
 */
export function worthShowing(line: string, verbose: boolean): boolean {
  if (verbose) return true;
  const level = pinoLevel(line);
  return level === undefined || level >= WARN;
}
