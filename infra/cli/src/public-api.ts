/**
 * The public API (the gateway's /api) as a script calls it — `npm start`'s demo orders, the fault
 * suite's customers and staff, the bench's — JSON in and out, the session token as Bearer; and the
 * wait for something it answers to come true. One client, so all three ask as the storefront does.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface ApiCall {
  method?: string;
  json?: unknown;
  /** The session token (the `token` header of a sign-in's answer). */
  token?: string;
  /** More request headers (an Idempotency-Key, say). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON; the text as it came when it is not JSON (a proxy's error page); undefined when empty. */
  // biome-ignore lint/suspicious/noExplicitAny: callers read it field by field, as a client does
  body: any;
}

export async function callApi(gatewayUrl: string, path: string, call: ApiCall = {}): Promise<ApiAnswer> {
  const res = await fetch(`${gatewayUrl}/api${path}`, {
    method: call.method ?? 'GET',
    headers: {
      ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
      ...(call.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...call.headers,
    },
    body: call.json === undefined ? undefined : JSON.stringify(call.json),
    ...(call.signal ? { signal: call.signal } : {}),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

/**
 * `until(what, timeoutMs, probe)`: asks `probe` every `everyMs` until it answers something other
 * than undefined (a throw counts as not yet), failing after `timeoutMs` with "<by>: gave up waiting
 * for <what>", or at once when `signal` aborts.
 */
export function waiter(by: string, everyMs: number, signal?: AbortSignal) {
  return async function until<T>(
    what: string,
    timeoutMs: number,
    probe: () => Promise<T | undefined>,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe().catch(() => undefined);
      if (value !== undefined) return value;
      signal?.throwIfAborted();
      if (Date.now() > deadline) throw new Error(`${by}: gave up waiting for ${what}`);
      await sleep(everyMs);
    }
  };
}
