import {
  ACCEPTANCE_MESSAGES,
  AcceptanceExtension,
  AcceptanceRequest,
  AcceptanceSettings,
  AcceptanceSettingsChange,
  AcceptanceView,
  ShortLine,
} from '@decor/contracts';
import {
  badRequest,
  forbidden,
  HttpError,
  hasRole,
  notFound,
  objectIdParam,
  type ServiceApp,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { OrderContext } from '../context';
import { acceptEstimate, viewOf, withOffer } from '../store/accept';
import { readEstimateWithAcceptance } from '../store/acceptance';
import { changeSettings, readSettings } from '../store/acceptance-settings';
import { extendOffer } from '../store/offer-expiry';
import { actorOf, NOT_FOUND, visibleTo } from './order-answers';

const AcceptRefused = Type.Object({
  message: Type.String(),
  estimateVersion: Type.Optional(Type.String({ description: 'The version now, when the estimate changed' })),
  shortLines: Type.Optional(Type.Array(ShortLine)),
});

const Message = Type.Object({ message: Type.String() });

/** Issue 30: the shop's acceptance settings, and an estimate's acceptance by its customer. */
export async function acceptanceRoutes(app: ServiceApp, ctx: OrderContext): Promise<void> {
  app.get(
    '/settings/acceptance',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary:
          "The shop's acceptance settings: deposit, validity days, the rental agreement and its version (staff)",
        security: [{ session: [] }],
        response: { 200: Type.Object({ result: AcceptanceSettings }) },
      },
    },
    async () => ({ result: await readSettings(ctx.acceptanceSettings) }),
  );

  app.put(
    '/settings/acceptance',
    {
      onRequest: app.requireRole('superadmin'),
      schema: {
        summary: 'Change the acceptance settings (superadmin); a new agreement text becomes the next version',
        description:
          'depositPercent or depositAmount (dollars), or neither for no deposit. Estimates keep the version and ' +
          'deposit in force when they were sent; a new version applies to estimates sent after it.',
        security: [{ session: [] }],
        body: AcceptanceSettingsChange,
        response: { 200: Type.Object({ result: AcceptanceSettings }) },
      },
    },
    async (request) => {
      const change = request.body;
      if (change.depositPercent !== undefined && change.depositAmount !== undefined)
        throw badRequest('Give a deposit percentage or a fixed amount, not both');
      return { result: await changeSettings(ctx.acceptanceSettings, change) };
    },
  );

  app.get(
    '/estimate/:id/acceptance',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "Where an estimate's online acceptance stands (its customer or staff)",
        description:
          'estimateVersion is the SHA-256 of exactly what the accept screen shows (lines, prices, trucking, ' +
          'totals, event details and dates); send it back with the acceptance.',
        security: [{ session: [] }],
        params: objectIdParam,
        response: { 200: Type.Object({ result: AcceptanceView }) },
      },
    },
    async (request) => {
      const loaded = await readEstimateWithAcceptance(ctx, request.params.id);
      if (!loaded || !visibleTo(request.user)(loaded.order)) throw notFound(NOT_FOUND.estimate);
      return { result: await viewOf(ctx, await withOffer(ctx, loaded)) };
    },
  );

  app.post(
    '/estimate/:id/acceptance',
    {
      onRequest: app.authenticate,
      bodyLimit: 512 * 1024, // the drawn signature (a PNG data URL, 400,000 characters at most)
      schema: {
        summary: 'The customer accepts the estimate: signs the agreement and authorises the deposit',
        description:
          'With an Idempotency-Key header: the same key again, or racing posts, get the first answer (one ' +
          'authorisation, one acceptance). 201 the acceptance (deposit authorised, not captured); 402 the card ' +
          "was declined (the provider's message); 409 changed (with the new estimateVersion), not offered, " +
          'expired, already accepted, or a line no longer fits its dates (shortLines); 403 anyone but the ' +
          "order's customer; 503 the payment provider is down (nothing recorded).",
        security: [{ session: [] }],
        params: objectIdParam,
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        }),
        body: AcceptanceRequest,
        response: {
          201: Type.Object({ result: AcceptanceView }),
          400: Message,
          402: Message,
          409: AcceptRefused,
          503: Message,
        },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      if (!key) throw badRequest(ACCEPTANCE_MESSAGES.idempotencyKey);
      const staff = hasRole(request.user, 'staff');
      const answer = await acceptEstimate(ctx, {
        estimateId: request.params.id,
        userId: request.user.id,
        staff,
        body: request.body,
        idempotencyScope: `${request.user.id}:${key}`,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        correlationId: request.id,
      });
      switch (answer.status) {
        case 201:
          // Not waiting for EstimateAccepted to be on Kafka (the relay was woken by the write): no
          // other service is read for it next. The customer's page has the view in this answer and
          // reads the estimate and the list from this service; other open pages and the signed
          // agreement's job follow the event whenever it lands, and it is in the outbox with the
          // record, so a crash loses nothing. The wait cost 100 acceptances at once ~0.6 s each.
          return reply.code(201).send({ result: answer.view });
        case 403:
          throw forbidden(answer.message);
        case 404:
          throw notFound(NOT_FOUND.estimate);
        case 503:
          return reply.code(503).header('retry-after', '5').send({ message: answer.message });
        case 409: {
          const { status: _status, ...body } = answer;
          return reply.code(409).send(body);
        }
        default:
          throw new HttpError(answer.status, answer.message);
      }
    },
  );

  app.post(
    '/estimate/:id/acceptance/extend',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary:
          "Staff extend an estimate's acceptance period: it may be accepted for `days` more days from now",
        description:
          'For an Open estimate offered for acceptance and not accepted (awaiting, voided or expired): the new ' +
          'expiry is now + days and it awaits acceptance again (EstimateOfferExtended). An expired one whose ' +
          "holds were released books them again first: 409 with every short line (the availability 409's " +
          'shape) when they no longer fit, nothing changed. 409 when accepted or not offered; 403 for customers.',
        security: [{ session: [] }],
        params: objectIdParam,
        body: AcceptanceExtension,
        response: { 200: Type.Object({ result: AcceptanceView }), 409: AcceptRefused },
      },
    },
    async (request, reply) => {
      const answer = await extendOffer(
        ctx,
        request.params.id,
        request.body.days,
        actorOf(request.user),
        request.id,
      );
      switch (answer.status) {
        case 200:
          // Open pages and the list follow EstimateOfferExtended: published before the answer (a
          // scan: the relay's claim by id takes the estimate's ObjectId, never the path's string).
          await ctx.eventsPublished();
          return { result: await viewOf(ctx, answer.loaded) };
        case 404:
          throw notFound(NOT_FOUND.estimate);
        case 409: {
          const { status: _status, ...body } = answer;
          return reply.code(409).send(body);
        }
      }
    },
  );
}
