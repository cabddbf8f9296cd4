/**
 * The Stripe REST subset under /v1: API keys (Bearer `sk_test_…`; `pk_test_…` where Stripe allows a
 * publishable key), form parameters, Idempotency-Key replays, `expand[]`, lists, and the routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromCardParams } from './cards';
import type { Ctx } from './context';
import { snapshot } from './context';
import { StripeFault, stripeErrors } from './errors';
import type { Faults } from './faults';
import { sleep } from './faults';
import { type Params, parseForm } from './form';
import {
  cancelIntent,
  captureIntent,
  confirmIntent,
  createIntent,
  findIntent,
  lapseAuthorisations,
  updateIntent,
} from './intents';
import { expandList, integer, onlyKnown, text } from './params';
import { createRefund } from './refunds';
import { newId, type Obj } from './store';
import { API_VERSION, type Webhooks } from './webhooks';

type Handler = (account: string, p: Params, id: string) => unknown;

interface Route {
  method: 'GET' | 'POST';
  path: string;
  handler: Handler;
  /** Stripe lets a publishable key create payment methods (what Stripe.js does in the browser). */
  publishable?: boolean;
}

const LIST_PARAMS = ['limit', 'starting_after', 'ending_before', 'expand', 'created'];

/** Stripe's list envelope, newest first, cursor by id. */
function list(all: Obj[], p: Params, url: string): Obj {
  const limit = integer(p, 'limit') ?? 10;
  if (limit < 1 || limit > 100)
    throw stripeErrors.invalid('limit', 'Invalid limit: must be between 1 and 100');
  let items = [...all].reverse();
  const after = text(p, 'starting_after');
  const before = text(p, 'ending_before');
  if (after) items = items.slice(items.findIndex((o) => o.id === after) + 1 || items.length);
  if (before) {
    const i = items.findIndex((o) => o.id === before);
    items = i < 0 ? [] : items.slice(Math.max(0, i - limit), i);
  }
  return {
    object: 'list',
    data: items.slice(0, limit),
    has_more: items.length > limit,
    url,
  } as unknown as Obj;
}

/** Replaces ids by objects for the `expand[]` paths the emulator knows. */
function expand(ctx: Ctx, value: unknown, paths: string[]): unknown {
  if (paths.length === 0 || !value || typeof value !== 'object') return value;
  const out = snapshot(value) as Record<string, unknown>;
  const { charges, paymentMethods } = ctx.store.state;
  const lookups: Record<string, (id: string) => unknown> = {
    latest_charge: (id) => charges[id],
    charge: (id) => charges[id],
    payment_method: (id) => paymentMethods[id]?.obj,
    payment_intent: (id) => ctx.store.state.intents[id]?.obj,
  };
  for (const path of paths) {
    const [head, ...rest] = path.split('.');
    if (head === 'data' && Array.isArray(out.data)) {
      out.data = out.data.map((item) => expand(ctx, item, [rest.join('.')]));
    } else if (head && rest.length === 0 && typeof out[head] === 'string' && lookups[head]) {
      out[head] = lookups[head](out[head] as string) ?? out[head];
    }
  }
  return out;
}

function routes(ctx: Ctx): Route[] {
  const intent = (account: string, id: string) => findIntent(ctx, account, id);
  const state = ctx.store.state;
  const mine = (account: string) =>
    Object.values(state.intents)
      .filter((i) => i.account === account)
      .map((i) => i.obj);
  return [
    { method: 'POST', path: '/v1/payment_intents', handler: (a, p) => createIntent(ctx, a, p) },
    {
      method: 'GET',
      path: '/v1/payment_intents',
      handler: (a, p) => {
        onlyKnown(p, [...LIST_PARAMS, 'customer']);
        return list(mine(a), p, '/v1/payment_intents');
      },
    },
    { method: 'GET', path: '/v1/payment_intents/:id', handler: (a, _p, id) => intent(a, id).obj },
    {
      method: 'POST',
      path: '/v1/payment_intents/:id',
      handler: (a, p, id) => updateIntent(ctx, intent(a, id), p),
    },
    {
      method: 'POST',
      path: '/v1/payment_intents/:id/confirm',
      handler: (a, p, id) => confirmIntent(ctx, intent(a, id), p),
    },
    {
      method: 'POST',
      path: '/v1/payment_intents/:id/capture',
      handler: (a, p, id) => captureIntent(ctx, intent(a, id), p),
    },
    {
      method: 'POST',
      path: '/v1/payment_intents/:id/cancel',
      handler: (a, p, id) => cancelIntent(ctx, intent(a, id), p),
    },
    { method: 'POST', path: '/v1/refunds', handler: (a, p) => createRefund(ctx, a, p) },
    {
      method: 'GET',
      path: '/v1/refunds',
      handler: (a, p) => {
        onlyKnown(p, [...LIST_PARAMS, 'payment_intent', 'charge']);
        const pi = text(p, 'payment_intent');
        const ch = text(p, 'charge');
        const refunds = Object.values(state.refunds).filter(
          (r) =>
            state.intents[String(r.payment_intent)]?.account === a &&
            (!pi || r.payment_intent === pi) &&
            (!ch || r.charge === ch),
        );
        return list(refunds, p, '/v1/refunds');
      },
    },
    {
      method: 'GET',
      path: '/v1/refunds/:id',
      handler: (a, _p, id) => {
        const r = state.refunds[id];
        if (!r || state.intents[String(r.payment_intent)]?.account !== a)
          throw stripeErrors.noSuch('refund', id);
        return r;
      },
    },
    {
      method: 'GET',
      path: '/v1/charges/:id',
      handler: (a, _p, id) => {
        const c = state.charges[id];
        if (!c || state.intents[String(c.payment_intent)]?.account !== a)
          throw stripeErrors.noSuch('charge', id);
        return c;
      },
    },
    {
      method: 'POST',
      path: '/v1/payment_methods',
      publishable: true,
      handler: (_a, p) => {
        onlyKnown(p, ['type', 'card', 'billing_details', 'metadata', 'expand', 'allow_redisplay']);
        const pm = fromCardParams(p, ctx.store.now());
        state.paymentMethods[pm.obj.id] = pm;
        ctx.store.changed();
        return pm.obj;
      },
    },
    {
      method: 'GET',
      path: '/v1/payment_methods/:id',
      handler: (_a, _p, id) => {
        const pm = state.paymentMethods[id];
        if (!pm) throw stripeErrors.noSuch('PaymentMethod', id);
        return pm.obj;
      },
    },
    {
      method: 'GET',
      path: '/v1/events',
      handler: (a, p) => {
        onlyKnown(p, [...LIST_PARAMS, 'type', 'types', 'delivery_success']);
        const type = text(p, 'type');
        const events = Object.values(state.events)
          .filter((e) => e.account === a && (!type || e.obj.type === type))
          .map((e) => e.obj);
        return list(events, p, '/v1/events');
      },
    },
    {
      method: 'GET',
      path: '/v1/events/:id',
      handler: (a, _p, id) => {
        const e = state.events[id];
        if (!e || e.account !== a) throw stripeErrors.noSuch('event', id);
        return e.obj;
      },
    },
  ];
}

/** The key of `Authorization: Bearer <key>` (or Basic with the key as user name, which Stripe also takes). */
function apiKey(req: FastifyRequest): string {
  const auth = req.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) return auth.slice(7).trim();
  if (auth.startsWith('Basic '))
    return Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0] ?? '';
  return '';
}

const masked = (key: string) =>
  key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key;

/** Stripe lets browsers call the publishable-key endpoints from any origin. */
function allowBrowser(req: FastifyRequest, reply: FastifyReply): void {
  const origin = req.headers.origin;
  if (!origin) return;
  reply
    .header('access-control-allow-origin', origin)
    .header('vary', 'Origin')
    .header('access-control-allow-headers', 'authorization, content-type, idempotency-key, stripe-version')
    .header('access-control-allow-methods', 'GET, POST, OPTIONS')
    .header('access-control-max-age', '600');
}

export function registerApi(app: FastifyInstance, ctx: Ctx, webhooks: Webhooks, faults: Faults): void {
  const state = ctx.store.state;
  const inFlight = new Set<string>();
  for (const route of routes(ctx)) {
    if (route.publishable)
      app.options(route.path, async (req, reply) => {
        allowBrowser(req, reply);
        return reply.code(204).send();
      });
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req, reply) => {
        const requestId = newId('req');
        reply.header('request-id', requestId).header('stripe-version', API_VERSION);
        if (route.publishable) allowBrowser(req, reply);
        const key = apiKey(req);
        const idempotencyKey = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
        const idemKey = typeof idempotencyKey === 'string' && idempotencyKey ? idempotencyKey : undefined;
        // Stripe answers 409 to a request whose key another request is still executing (here: only
        // under the slow fault with `conflicts`, see faults.ts).
        const slot = idemKey && faults.state.conflicts ? `${key} ${idemKey}` : undefined;
        if (slot && inFlight.has(slot)) throw stripeErrors.idempotencyInFlight(idemKey as string);
        if (slot) inFlight.add(slot);
        try {
          return await serve(req, reply, route, requestId, key, idemKey);
        } finally {
          if (slot) inFlight.delete(slot);
        }
      },
    });
  }

  async function serve(
    req: FastifyRequest,
    reply: FastifyReply,
    route: Route,
    requestId: string,
    key: string,
    idemKey: string | undefined,
  ) {
    const { slowMs, down } = faults.state;
    if (slowMs) await sleep(slowMs);
    if (down) throw stripeErrors.down();
    lapseAuthorisations(ctx);

    const allowed = key.startsWith('sk_test_') || (route.publishable && key.startsWith('pk_test_'));
    if (!allowed) {
      if (key.startsWith('pk_')) throw stripeErrors.publishableKey();
      throw stripeErrors.apiKey(masked(key));
    }
    const params: Params =
      req.method === 'GET'
        ? parseForm(req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '')
        : req.body && typeof req.body === 'object'
          ? (req.body as Params)
          : {};
    const id = (req.params as { id?: string }).id ?? '';
    if (idemKey) reply.header('idempotency-key', idemKey);

    const run = (): { status: number; body: unknown } => {
      webhooks.request = { id: requestId, idempotency_key: idemKey ?? null };
      try {
        const result = route.handler(key, params, id);
        return { status: 200, body: expand(ctx, result, expandList(params)) };
      } catch (err) {
        if (err instanceof StripeFault) return { status: err.status, body: { error: err.body } };
        throw err;
      } finally {
        webhooks.request = { id: null, idempotency_key: null };
      }
    };

    if (!idemKey) {
      const { status, body } = run();
      return reply.code(status).send(body);
    }
    // Stripe's rule: the same key with the same parameters gets the first answer again; with others, 400.
    const slot = `${key} ${idemKey}`;
    const request = `${req.method} ${req.routeOptions.url} ${id} ${JSON.stringify(params)}`;
    const replay = state.replays[slot];
    if (replay) {
      if (replay.request !== request) throw stripeErrors.idempotencyMismatch(idemKey);
      return reply.code(replay.status).header('idempotent-replayed', 'true').send(replay.body);
    }
    const answer = run();
    // Saved once the endpoint started executing: successes and card declines, not a refused request.
    if (answer.status < 400 || answer.status === 402) {
      state.replays[slot] = { request, ...answer, at: ctx.store.now() };
      ctx.store.changed();
    }
    return reply.code(answer.status).send(answer.body);
  }

  app.all('/v1/*', async (req) => {
    throw stripeErrors.notFound(req.method, req.url.split('?')[0] ?? req.url);
  });
}
