import QuickBooks from 'node-quickbooks';
import { classifyFault, QboFault } from './faults';
import type { RateLimiter } from './rate-limit';
import type { LiveSession, QboSessions } from './session';
import { timeBoxed } from './time-box';

export type QboEntityName = 'Customer' | 'Item' | 'Estimate' | 'Invoice' | 'Payment' | 'RefundReceipt';
// biome-ignore lint/suspicious/noExplicitAny: QuickBooks entities are open JSON objects
export type QboEntity = Record<string, any>;

const PLURAL: Record<QboEntityName, string> = {
  Customer: 'Customers',
  Item: 'Items',
  Estimate: 'Estimates',
  Invoice: 'Invoices',
  Payment: 'Payments',
  RefundReceipt: 'RefundReceipts',
};

export interface QboClientConfig {
  QBO_CLIENT_ID: string;
  QBO_CLIENT_SECRET: string;
  QBO_API_BASE_URL: string;
  /** Each call's time box (also cut short by the record lock's deadline, see time-box.ts). */
  QBO_CALL_TIMEOUT_MS: number;
}

/** The calls of the Accounting API this service makes, each through node-quickbooks. */
export interface QboApi {
  create(entity: QboEntityName, doc: QboEntity, requestId: string): Promise<QboEntity>;
  /** A sparse update (node-quickbooks adds `sparse: true`); `doc` carries Id and SyncToken. */
  update(entity: QboEntityName, doc: QboEntity, requestId: string): Promise<QboEntity>;
  get(entity: QboEntityName, id: string): Promise<QboEntity>;
  /** `where` as QuickBooks' query language, e.g. `where DisplayName = 'Acme'`; every page. */
  query(entity: QboEntityName, where?: string): Promise<QboEntity[]>;
  send(entity: 'Estimate' | 'Invoice', id: string, sendTo?: string): Promise<QboEntity>;
  voidInvoice(doc: { Id: string; SyncToken: string }, requestId: string): Promise<QboEntity>;
  companyInfo(): Promise<QboEntity>;
}

type Invoke = (qb: QuickBooks, done: (err: unknown, data?: unknown) => void) => void;

/**
 * A node-quickbooks client for one call (cheap: it only holds settings). One per call: invokeWith
 * puts that call's AbortSignal on it.
 */
export function quickBooksFor(
  config: QboClientConfig,
  session: Pick<LiveSession, 'realmId' | 'accessToken'>,
) {
  // biome-ignore lint/suspicious/noExplicitAny: the typings' constructor is narrower than the runtime's
  const Client = QuickBooks as any;
  const qb = new Client(
    config.QBO_CLIENT_ID,
    config.QBO_CLIENT_SECRET,
    session.accessToken,
    false,
    session.realmId,
    false,
    false,
    null,
    '2.0',
  ) as QuickBooks;
  // Per client, never QuickBooks.setOauthVersion (it fetches Intuit's discovery document).
  (qb as unknown as { endpoint: string }).endpoint = config.QBO_API_BASE_URL;
  return qb;
}

/**
 * One call on `qb` (a client of its own, from quickBooksFor), aborted after `timeoutMs` or at the
 * surrounding record lock's deadline: its requests carry the client's signal (vendor/node-quickbooks).
 */
export function invokeWith(qb: QuickBooks, invoke: Invoke, timeoutMs: number): Promise<unknown> {
  return timeBoxed(timeoutMs, (signal) => {
    qb.signal = signal;
    return new Promise((resolve, reject) => {
      invoke(qb, (err, data) => (err ? reject(classifyFault(err)) : resolve(data)));
    });
  });
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

  // biome-ignore lint/suspicious/noExplicitAny: node-quickbooks methods are looked up by entity name
  const method = (qb: QuickBooks, name: string) => (qb as any)[name].bind(qb);

  return {
    create: (entity, doc, requestId) =>
      call((qb, done) => method(qb, `create${entity}`)({ ...doc, requestId }, done)),
    update: (entity, doc, requestId) =>
      call((qb, done) => method(qb, `update${entity}`)({ ...doc, requestId }, done)),
    get: (entity, id) => call((qb, done) => method(qb, `get${entity}`)(id, done)),
    async query(entity, where) {
      const rows: QboEntity[] = [];
      for (let start = 1; ; start += 1000) {
        const page = await call<{ QueryResponse?: Record<string, QboEntity[]> }>((qb, done) =>
          method(qb, `find${PLURAL[entity]}`)(
            `${where ?? ''} startposition ${start} maxresults 1000`.trim(),
            done,
          ),
        );
        const found = page.QueryResponse?.[entity] ?? [];
        rows.push(...found);
        if (found.length < 1000) return rows;
      }
    },
    send: (entity, id, sendTo) => call((qb, done) => method(qb, `send${entity}Pdf`)(id, sendTo, done)),
    voidInvoice: (doc, requestId) =>
      call<{ Invoice: QboEntity }>((qb, done) =>
        qb.voidInvoice({ ...doc, requestId } as never, done as never),
      ).then((res) => res.Invoice ?? res),
    companyInfo: () =>
      call(async (qb, done) =>
        qb.getCompanyInfo((qb as unknown as { realmId: string }).realmId, done as never),
      ),
  };
}

export { QboFault };
