/**
 * A local QuickBooks Online: Intuit's OAuth 2.0 endpoints, the Accounting API v3 subset the
 * accounting-sync service uses (customers, items, estimates, invoices, queries, send, void),
 * per-realm throttling and injectable faults, and a control API for tests (see control.ts).
 * Facts it follows: ../shared/QUICKBOOKS-NOTES.md.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyError } from 'fastify';
import nodemailer from 'nodemailer';
import { registerApi } from './api';
import { Ctx } from './context';
import { registerControl } from './control';
import { DEMO_REALM_ID, demoCompany, demoRecords } from './demo-company';
import { faults } from './faults';
import { registerOAuth } from './oauth';
import { recordsPage } from './page';
import { Store } from './store';

export interface QboEmulatorOptions {
  /** 0 = a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** JSON file loaded at start and written atomically (debounced ~200 ms, flushed on close); absent = memory only. */
  dataFile?: string;
  /** Where the send endpoints e-mail the document (no TLS). */
  smtp?: { host: string; port: number };
  clientId: string;
  clientSecret: string;
  /** Default 3600. */
  accessTokenTtlSec?: number;
  /** Default 8726400 (101 days). */
  refreshTokenTtlSec?: number;
  /** Default 500, per realm. */
  rateLimitPerMinute?: number;
}

export interface QboEmulator {
  url: string;
  /** The demo company. */
  realmId: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** The client the local stack uses (npm start, tests). */
export const QBO_DEV_CLIENT = { clientId: 'decor-local-client', clientSecret: 'decor-local-secret' };

export async function startQboEmulator(opts: QboEmulatorOptions): Promise<QboEmulator> {
  const store = new Store(opts.dataFile);
  const demo = store.state.companies[DEMO_REALM_ID];
  if (!demo) {
    store.state.companies[DEMO_REALM_ID] = demoCompany();
    store.changed();
  } else {
    // A demo company from an older data file gets the demo records added since (by name).
    const before = JSON.stringify(demo.nextId);
    demoRecords(demo);
    if (JSON.stringify(demo.nextId) !== before) store.changed();
  }
  const mailer = opts.smtp
    ? nodemailer.createTransport({
        host: opts.smtp.host,
        port: opts.smtp.port,
        secure: false,
        ignoreTLS: true,
      })
    : undefined;
  const ctx = new Ctx(opts, store, mailer);

  const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
  // Own parsers: JSON (an empty body is no body), forms, and anything else as text, since the send
  // endpoints get no body under any content type (node-quickbooks: x-www-form-urlencoded).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const s = String(text);
    if (s.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(s));
    } catch (err) {
      done(Object.assign(faults.badJson((err as Error).message), { statusCode: 400 }), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(text)))),
  );
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) =>
    done(null, String(text) || undefined),
  );

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const fault = err as unknown as { error?: unknown; type?: string };
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (req.url.startsWith('/v3/')) {
      const error = fault.error ?? {
        Message: 'An application error has occurred',
        Detail: err.message,
        code: '10000',
      };
      return reply
        .code(status)
        .type('application/json;charset=utf-8')
        .send({
          Fault: { Error: [error], type: fault.type ?? 'SystemFault' },
          time: new Date().toISOString(),
        });
    }
    return reply.code(status).send({ error: err.message });
  });

  registerOAuth(app, ctx);
  registerApi(app, ctx);
  registerControl(app, ctx);

  app.get('/', async (req, reply) => {
    const wanted = (req.query as { realmId?: string }).realmId ?? DEMO_REALM_ID;
    const company = ctx.company(wanted);
    if (!company) return reply.code(404).type('text/html; charset=utf-8').send('<p>No such company.</p>');
    const all = Object.values(store.state.companies);
    return reply.type('text/html; charset=utf-8').send(recordsPage(company, all));
  });
  app.get('/readyz', async () => ({ status: 'ok' }));

  await app.listen({ port: opts.port, host: opts.host ?? '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const host = opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1';
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    realmId: DEMO_REALM_ID,
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    close: () => {
      closing ??= (async () => {
        await app.close();
        mailer?.close();
        store.flush();
      })();
      return closing;
    },
  };
}
