/**
 * A service's instances, as its `*_SERVICE_URL` lists them (comma-separated; one URL is one instance,
 * or a load-balanced address such as a Kubernetes Service). Requests take them in turn; a request
 * whose instance could not take it goes to the next one (src/proxy.ts), so a rolling restart of the
 * service loses nothing.
 */
export class UpstreamPool {
  readonly urls: readonly string[];
  private turn = 0;

  constructor(urls: readonly string[]) {
    if (urls.length === 0) throw new Error('an upstream pool needs at least one URL');
    this.urls = urls;
  }

  get size(): number {
    return this.urls.length;
  }

  /** The next instance in turn. */
  next(): string {
    const url = this.urls[this.turn % this.urls.length] as string;
    this.turn = (this.turn + 1) % this.urls.length;
    return url;
  }

  /** The instance after `url` (for a retry elsewhere). */
  after(url: string): string {
    const i = this.urls.indexOf(url);
    return this.urls[(i + 1) % this.urls.length] as string;
  }
}

/** `http://a:4104, http://b:4104` → a pool of two (trailing slashes dropped). */
export function poolOf(value: string): UpstreamPool {
  return new UpstreamPool(
    value
      .split(',')
      .map((u) => u.trim().replace(/\/+$/, ''))
      .filter(Boolean),
  );
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The failure of a call whose connection was never made: nothing reached the instance. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** The connection ended before any answer: the instance may have read the request, or not. */
const CUT_OFF = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function codeOf(error: unknown): string | undefined {
  let e = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.code && (NOT_CONNECTED.has(e.code) || CUT_OFF.has(e.code))) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/**
 * Whether a failed call may be sent to another instance: always when the connection was refused
 * (a stopped or restarting instance: nothing was sent); when it was cut off before an answer, only
 * a request that is safe twice — a read, or a write carrying an Idempotency-Key (the service answers
 * the same key once). A timeout is never retried: the first instance may still be working on it.
 */
export function mayRetryElsewhere(method: string, headers: Record<string, unknown>, error: unknown): boolean {
  const code = codeOf(error);
  if (!code) return false;
  if (NOT_CONNECTED.has(code)) return true;
  return IDEMPOTENT.has(method) || typeof headers['idempotency-key'] === 'string';
}
