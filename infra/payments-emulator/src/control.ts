/**
 * The control API under /__emulator (plain JSON, no auth) for tests, benchmarks and demos: the
 * clock (authorisations lapse after 7 days), faults, webhook endpoints, events and their deliveries.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from './context';
import type { Faults } from './faults';
import { lapseAuthorisations } from './intents';
import { upsertEndpoint } from './webhooks';

type Body = Record<string, unknown>;
const body = (req: FastifyRequest): Body =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Body) : {};
const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

export interface ControlHooks {
  /** Closes the port for `seconds` (connections refused), then listens again. */
  refuse(seconds: number): void;
}

export function registerControl(app: FastifyInstance, ctx: Ctx, faults: Faults, hooks: ControlHooks): void {
  const { store } = ctx;
  const bad = (reply: FastifyReply, message: string, status = 400) =>
    reply.code(status).send({ error: message });
  const clock = () => ({
    now: new Date(store.nowMs()).toISOString(),
    offsetSeconds: Math.round(store.state.clockOffsetMs / 1000),
  });

  app.get('/__emulator', async () => ({
    ...clock(),
    faults: faults.state,
    webhookEndpoints: Object.keys(store.state.webhookEndpoints).length,
    paymentIntents: Object.keys(store.state.intents).length,
  }));

  app.get('/__emulator/clock', async () => clock());

  // Time only moves forward, as at Stripe; what falls due (lapsed authorisations) happens at once.
  app.post('/__emulator/clock', async (req, reply) => {
    const { advanceSeconds } = body(req);
    if (!positive(advanceSeconds)) return bad(reply, 'send { advanceSeconds: N } (N > 0)');
    store.state.clockOffsetMs += Math.round(advanceSeconds * 1000);
    store.changed();
    const lapsed = lapseAuthorisations(ctx);
    return { ...clock(), lapsed };
  });

  app.post('/__emulator/faults', async (req, reply) => {
    const b = body(req);
    const forSeconds = positive(b.forSeconds) ? b.forSeconds : undefined;
    if (b.down === 'refuse') {
      if (!forSeconds)
        return bad(reply, "{ down: 'refuse' } needs forSeconds (the control API is refused too)");
      // Answered first: the port closes right after this reply.
      reply.send({
        faults: { down: 'refuse', until: new Date(Date.now() + forSeconds * 1000).toISOString() },
      });
      setImmediate(() => hooks.refuse(forSeconds));
      return reply;
    }
    if (b.down === true || b.down === '503') return { faults: faults.set({ down: '503' }, forSeconds) };
    if (positive(b.slowMs))
      return {
        faults: faults.set(
          { slowMs: b.slowMs, ...(b.conflicts === true ? { conflicts: true } : {}) },
          forSeconds,
        ),
      };
    return bad(
      reply,
      "send { down: true } (API calls answer 503), { down: 'refuse', forSeconds } (connections refused) or { slowMs, conflicts? } — each with an optional forSeconds",
    );
  });

  app.delete('/__emulator/faults', async () => {
    faults.clear();
    return { faults: faults.state };
  });

  app.get('/__emulator/webhook-endpoints', async () => Object.values(store.state.webhookEndpoints));

  app.post('/__emulator/webhook-endpoints', async (req, reply) => {
    const b = body(req);
    if (typeof b.url !== 'string' || !/^https?:\/\//.test(b.url))
      return bad(reply, 'send { url, secret?, apiKey?, enabledEvents? }');
    if (b.secret !== undefined && typeof b.secret !== 'string') return bad(reply, 'secret must be a string');
    if (b.apiKey !== undefined && typeof b.apiKey !== 'string') return bad(reply, 'apiKey must be a string');
    const events = Array.isArray(b.enabledEvents)
      ? b.enabledEvents.filter((e) => typeof e === 'string')
      : undefined;
    const endpoint = upsertEndpoint(store, {
      url: b.url,
      ...(b.secret ? { secret: b.secret as string } : {}),
      ...(b.apiKey ? { apiKey: b.apiKey as string } : {}),
      ...(events ? { enabledEvents: events as string[] } : {}),
    });
    return reply.code(201).send(endpoint);
  });

  app.delete('/__emulator/webhook-endpoints/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!store.state.webhookEndpoints[id]) return bad(reply, `no webhook endpoint ${id}`, 404);
    delete store.state.webhookEndpoints[id];
    store.state.deliveries = store.state.deliveries.filter((d) => d.endpointId !== id);
    store.changed();
    return { deleted: id };
  });

  // Events newest first with each one's deliveries (?type=…&paymentIntent=pi_…&limit=N).
  app.get('/__emulator/events', async (req) => {
    const q = req.query as { type?: string; paymentIntent?: string; limit?: string };
    const limit = Math.min(1000, Number(q.limit) || 100);
    const { events, deliveries, delivered } = store.state;
    const about = (obj: Record<string, unknown>) =>
      obj.object === 'payment_intent' ? obj.id : (obj.payment_intent as string | undefined);
    return Object.values(events)
      .filter(
        (e) =>
          (!q.type || e.obj.type === q.type) &&
          (!q.paymentIntent ||
            about((e.obj.data as { object: Record<string, unknown> }).object) === q.paymentIntent),
      )
      .reverse()
      .slice(0, limit)
      .map((e) => ({
        ...e.obj,
        deliveries: [
          ...delivered.filter((d) => d.eventId === e.obj.id),
          ...deliveries.filter((d) => d.eventId === e.obj.id).map((d) => ({ ...d, status: 'due' })),
        ],
      }));
  });

  app.get('/__emulator/payment-intents', async () =>
    Object.values(store.state.intents)
      .map((i) => i.obj)
      .reverse(),
  );
}
