import { randomUUID } from 'node:crypto';
import { classifyFault, QboFault } from './faults';
import type { RateLimiter } from './rate-limit';
import type { LiveSession, QboSessions } from './session';
import { timeBoxed } from './time-box';

export type QboEntityName = 'Customer' | 'Item' | 'Estimate' | 'Invoice';
// biome-ignore lint/suspicious/noExplicitAny: QuickBooks entities are open JSON objects
export type QboEntity = Record<string, any>;

export interface QboClientConfig {
  QBO_CLIENT_ID: string;
  QBO_CLIENT_SECRET: string;
  QBO_API_BASE_URL: string;
  /** Each call's time box (also cut short by the record lock's deadline, see time-box.ts). */
  QBO_CALL_TIMEOUT_MS: number;
}

/** The calls of the Accounting API this service makes. */
export interface QboApi {
  create(entity: QboEntityName, doc: QboEntity, requestId: string): Promise<QboEntity>;
  /** A sparse update (`sparse: true` unless `doc` says otherwise); `doc` carries Id and SyncToken. */
  update(entity: QboEntityName, doc: QboEntity, requestId: string): Promise<QboEntity>;
  get(entity: QboEntityName, id: string): Promise<QboEntity>;
  /** `where` as QuickBooks' query language, e.g. `where DisplayName = 'Acme'`; every page. */
  query(entity: QboEntityName, where?: string): Promise<QboEntity[]>;
  send(entity: 'Estimate' | 'Invoice', id: string, sendTo?: string): Promise<QboEntity>;
  voidInvoice(doc: { Id: string; SyncToken: string }, requestId: string): Promise<QboEntity>;
  companyInfo(): Promise<QboEntity>;
}

/** The Accounting API minor version asked for (node-quickbooks' default, which this client replaced). */
const MINOR_VERSION = '75';

type Done = (err: unknown, data?: unknown) => void;

/** Query values encoded as QuickBooks expects them (a space as %20, never `+`). */
const queryString = (params: Record<string, string | undefined>) =>
  Object.entries(params)
    .flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${encodeURIComponent(v)}`]))
    .join('&');

/**
 * One company's Accounting API with one access token, each request ended by its call's signal (the
 * time box, time-box.ts): fetch takes the signal itself, so aborting destroys that request's socket
 * and nothing else. A failure has the shape faults.ts classifies: `{ response }` for an HTTP error,
 * the body for a 200 carrying a Fault, `{ code, message }` when nothing answered.
 */
export class QboRequests {
  constructor(
    private readonly config: Pick<QboClientConfig, 'QBO_API_BASE_URL'>,
    private readonly session: Pick<LiveSession, 'realmId' | 'accessToken'>,
    private readonly signal?: AbortSignal,
  ) {}

  get realmId(): string {
    return this.session.realmId;
  }

  /** The same client, its requests ended by `signal`. */
  withSignal(signal: AbortSignal): QboRequests {
    return new QboRequests(this.config, this.session, signal);
  }

  async request(
    method: 'GET' | 'POST',
    path: string,
    params: Record<string, string | undefined> = {},
    body?: unknown,
  ): Promise<unknown> {
    const query = queryString({ ...params, minorversion: MINOR_VERSION, format: 'json' });
    const url = `${this.config.QBO_API_BASE_URL}${this.session.realmId}${path}${path.includes('?') ? '&' : '?'}${query}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.session.accessToken}`,
          accept: 'application/json',
          'request-id': randomUUID(),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: this.signal,
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      throw { code: e.cause?.code ?? e.name, message: e.message };
    }
    const text = await res.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): kept as text for the fault's message.
    }
    if (!res.ok) throw { response: { status: res.status, data, headers: Object.fromEntries(res.headers) } };
    const fault = (data as { Fault?: { Error?: unknown[] } } | null)?.Fault;
    if (fault?.Error?.length) throw data;
    return data;
  }

  /** The entity of an answer (`{ Estimate: {...}, time }` → the estimate). */
  async entity(entity: string, answer: Promise<unknown>): Promise<QboEntity> {
    const data = (await answer) as Record<string, QboEntity>;
    return data?.[entity] ?? data;
  }

  /** For callers written against callbacks (the connection's company name). */
  getCompanyInfo(realmId: string, done: Done): void {
    this.entity('CompanyInfo', this.request('GET', `/companyinfo/${encodeURIComponent(realmId)}`)).then(
      (info) => done(null, info),
      (err) => done(err),
    );
  }
}

type Invoke = (qb: QboRequests, done: Done) => void;

/** The Accounting API of one company with one token (cheap: it only holds settings). */
export function quickBooksFor(
  config: Pick<QboClientConfig, 'QBO_API_BASE_URL'>,
  session: Pick<LiveSession, 'realmId' | 'accessToken'>,
): QboRequests {
  return new QboRequests(config, session);
}

/** One call, aborted after `timeoutMs` (or at the surrounding record lock's deadline). */
export function invokeWith(qb: QboRequests, invoke: Invoke, timeoutMs: number): Promise<unknown> {
  return timeBoxed(
    timeoutMs,
    (signal) =>
      new Promise((resolve, reject) => {
        invoke(qb.withSignal(signal), (err, data) => (err ? reject(classifyFault(err)) : resolve(data)));
      }),
  );
}

/**
 * Every call waits for its slot in the company's shared rate limit, uses the current token, renews
 * it once on a 401 (another process may already have), and waits out a 429's Retry-After a few
 * times before giving the fault to the job (whose backoff takes over).
 */
export function qboApi(deps: {
  config: QboClientConfig;
  sessions: QboSessions;
  limiter: RateLimiter;
}): QboApi {
  const { config, sessions, limiter } = deps;

  async function call<T>(invoke: Invoke): Promise<T> {
    let renewed = false;
    let throttled = 0;
    let session = await sessions.current();
    for (;;) {
      await limiter.take(session.realmId);
      try {
        return (await invokeWith(quickBooksFor(config, session), invoke, config.QBO_CALL_TIMEOUT_MS)) as T;
      } catch (err) {
        const fault = err as QboFault;
        if (fault.kind === 'auth' && !renewed) {
          renewed = true;
          session = await sessions.renew(session.generation);
          continue;
        }
        if (fault.kind === 'auth') {
          await sessions.lose('QuickBooks refused a renewed token', session.generation);
        }
        if (fault.kind === 'throttle' && throttled++ < 3) {
          await limiter.pushBack(session.realmId, fault.retryAfterMs ?? 5_000);
          continue;
        }
        throw fault;
      }
    }
  }

  /** A call whose request is `send`, answered as a promise. */
  const ask = <T>(send: (qb: QboRequests) => Promise<T>) =>
    call<T>((qb, done) => {
      send(qb).then(
        (data) => done(null, data),
        (err) => done(err),
      );
    });
  const path = (entity: string) => `/${entity.toLowerCase()}`;

  return {
    create: (entity, doc, requestId) =>
      ask((qb) => qb.entity(entity, qb.request('POST', path(entity), { requestid: requestId }, doc))),
    update: (entity, doc, requestId) =>
      ask((qb) =>
        qb.entity(
          entity,
          qb.request(
            'POST',
            `${path(entity)}?operation=update`,
            { requestid: requestId },
            { sparse: true, ...doc },
          ),
        ),
      ),
    get: (entity, id) =>
      ask((qb) => qb.entity(entity, qb.request('GET', `${path(entity)}/${encodeURIComponent(id)}`))),
    async query(entity, where) {
      const rows: QboEntity[] = [];
      for (let start = 1; ; start += 1000) {
        const statement = `select * from ${entity.toLowerCase()} ${where ?? ''} startposition ${start} maxresults 1000`;
        const page = await ask(
          (qb) =>
            qb.request('GET', '/query', { query: statement.replace(/\s+/g, ' ') }) as Promise<{
              QueryResponse?: Record<string, QboEntity[]>;
            }>,
        );
        const found = page.QueryResponse?.[entity] ?? [];
        rows.push(...found);
        if (found.length < 1000) return rows;
      }
    },
    send: (entity, id, sendTo) =>
      ask((qb) =>
        qb.entity(entity, qb.request('POST', `${path(entity)}/${encodeURIComponent(id)}/send`, { sendTo })),
      ),
    voidInvoice: (doc, requestId) =>
      ask((qb) =>
        qb.entity('Invoice', qb.request('POST', '/invoice?operation=void', { requestid: requestId }, doc)),
      ),
    companyInfo: () =>
      ask((qb) =>
        qb.entity('CompanyInfo', qb.request('GET', `/companyinfo/${encodeURIComponent(qb.realmId)}`)),
      ),
  };
}

export { QboFault };
