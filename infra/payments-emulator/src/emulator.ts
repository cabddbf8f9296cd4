/**
 * A local stand-in for Stripe: the subset of its REST API the product uses (PaymentIntents with
 * manual capture, refunds, card payment methods, events), spoken so that the real `stripe` client
 * works against it (`new Stripe(key, { host, port, protocol: 'http' })`); Stripe's test cards; signed
 * webhooks with retries; a clock the control API moves (authorisations lapse after 7 days); faults;
 * state in a JSON file; a payments page at `/` and the card frame at `/elements`.
 * Facts it follows: ../shared/ACCEPTANCE-NOTES.md ("Testing payments with no internet").
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyError } from 'fastify';
import { registerApi } from './api';
import type { Ctx } from './context';
import { registerControl } from './control';
import { StripeFault } from './errors';
import { Faults } from './faults';
import { parseForm } from './form';
import { lapseAuthorisations } from './intents';
import { elementsPage, paymentsPage } from './page';
import { Store } from './store';
import { DEFAULT_RETRY, type RetryPolicy, upsertEndpoint, Webhooks } from './webhooks';

export interface WebhookEndpointSpec {
  url: string;
  /** `whsec_…`; the receiver verifies with it. */
  secret: string;
  /** Only events of objects made with this secret key (default: all). */
  apiKey?: string;
  /** Default every event ('*'). */
  enabledEvents?: string[];
}

export interface PaymentsEmulatorOptions {
  /** 0 = a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** JSON file loaded at start and written atomically (debounced ~100 ms, flushed on close); absent = memory only. */
  dataFile?: string;
  /** Endpoints that get every event from the start (added to those kept in the data file, by url). */
  webhookEndpoints?: WebhookEndpointSpec[];
  /** Webhook retries (default: 1 s doubling to 5 min, 12 attempts, 10 s per attempt). */
  webhookRetry?: Partial<RetryPolicy>;
  /** How often lapsed authorisations are looked for besides on each API call (default 1000 ms). */
  sweepIntervalMs?: number;
  /** The publishable key the card frame uses (default PAYMENTS_DEV_KEYS.publishableKey); any pk_test_… is accepted. */
  publishableKey?: string;
}

export interface PaymentsEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The keys the local stack uses (npm start, tests). The emulator takes any `sk_test_…` (each key
 * sees only its own PaymentIntents, like a Stripe account) and any `pk_test_…` for payment methods.
 */
export const PAYMENTS_DEV_KEYS = {
  secretKey: 'sk_test_decor_local_emulator',
  publishableKey: 'pk_test_decor_local_emulator',
  webhookSecret: 'whsec_decor_local_emulator',
} as const;

/** `origin` as given when it is a plain http(s) origin. */
function validOrigin(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === raw ? raw : undefined;
  } catch {
    return undefined;
  }
}

export async function startPaymentsEmulator(opts: PaymentsEmulatorOptions): Promise<PaymentsEmulator> {
  const store = new Store(opts.dataFile);
  // The last start's option endpoints go (npm start with another gateway port must not keep the old one).
  const endpoints = store.state.webhookEndpoints;
  const wanted = new Set((opts.webhookEndpoints ?? []).map((w) => `${w.url} ${w.apiKey ?? ''}`));
  for (const [id, e] of Object.entries(endpoints)) {
    if (e.fromOptions && !wanted.has(`${e.url} ${e.apiKey ?? ''}`)) delete endpoints[id];
  }
  store.state.deliveries = store.state.deliveries.filter((d) => endpoints[d.endpointId]);
  for (const spec of opts.webhookEndpoints ?? []) upsertEndpoint(store, spec, true);
  const webhooks = new Webhooks(store, { ...DEFAULT_RETRY, ...opts.webhookRetry });
  const ctx: Ctx = { store, events: webhooks };
  const faults = new Faults();

  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) =>
    done(null, parseForm(String(text))),
  );
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const s = String(text);
    if (s.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(s));
    } catch (err) {
      done(
        Object.assign(new Error(`Invalid JSON: ${(err as Error).message}`), { statusCode: 400 }),
        undefined,
      );
    }
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) =>
    done(null, String(text) || undefined),
  );

  app.setErrorHandler((err: FastifyError | StripeFault, req, reply) => {
    if (err instanceof StripeFault) return reply.code(err.status).send({ error: err.body });
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (req.url.startsWith('/v1/'))
      return reply.code(status).send({
        error: { type: status === 500 ? 'api_error' : 'invalid_request_error', message: err.message },
      });
    return reply.code(status).send({ error: err.message });
  });

  let port = opts.port;
  const host = opts.host ?? '127.0.0.1';
  let refuseTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const relisten = () =>
    new Promise<void>((resolve) => {
      refuseTimer = undefined;
      if (closed || app.server.listening) return resolve();
      app.server.listen({ port, host }, () => resolve());
    });

  registerApi(app, ctx, webhooks, faults);
  registerControl(app, ctx, faults, {
    refuse: (seconds) => {
      if (refuseTimer || closed) return;
      app.server.close();
      app.server.closeAllConnections();
      refuseTimer = setTimeout(() => void relisten(), seconds * 1000);
    },
  });

  app.get('/', async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(paymentsPage(store.state, store.now())),
  );

  app.get('/elements', async (req, reply) => {
    const q = req.query as { origin?: string; key?: string };
    const origin = validOrigin(q.origin);
    if (!origin)
      return reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(
          "<!doctype html><title>Card frame</title><p>?origin= must be the embedding page's origin, e.g. http://127.0.0.1:8080</p>",
        );
    const key =
      typeof q.key === 'string' && q.key.startsWith('pk_test_')
        ? q.key
        : (opts.publishableKey ?? PAYMENTS_DEV_KEYS.publishableKey);
    const nonce = randomBytes(16).toString('base64');
    return reply
      .type('text/html; charset=utf-8')
      .header(
        'content-security-policy',
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors ${origin}`,
      )
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(elementsPage(origin, key, nonce));
  });

  app.get('/readyz', async () => ({ status: 'ok' }));

  await app.listen({ port: opts.port, host });
  port = (app.server.address() as AddressInfo).port;
  const sweep = setInterval(() => {
    if (lapseAuthorisations(ctx) > 0) store.changed();
  }, opts.sweepIntervalMs ?? 1000);
  sweep.unref();

  const shownHost = host !== '0.0.0.0' ? host : '127.0.0.1';
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    close: () => {
      closing ??= (async () => {
        closed = true;
        clearInterval(sweep);
        if (refuseTimer) {
          clearTimeout(refuseTimer);
          refuseTimer = undefined;
          await new Promise<void>((resolve) => app.server.listen({ port, host }, () => resolve()));
        }
        faults.clear();
        await webhooks.close();
        await app.close();
        store.flush();
      })();
      return closing;
    },
  };
}
