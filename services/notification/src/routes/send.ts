import { ORDER_TYPES } from '@decor/contracts';
import { badRequest, currentUser, hasRole, notFound, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { NotificationContext } from '../context';
import { INVALID_EMAIL } from '../domain/email-address';
import { enquiryEmail } from '../domain/enquiry-email';
import { enqueueEmail } from '../jobs/email-queue';
import { EmailAddress, IdempotencyHeaders, NoQuery, QueuedResult } from './schemas';
import { refuseInvalid } from './validation';

/** The answer of POST /send/newEstimate: the e-mails already went out with EstimateSubmitted. */
export const NEW_ESTIMATE_SENT_ON_SUBMIT = 'The estimate e-mails are sent when the estimate is submitted';

/** The answer of POST /send/orderUpdate: the e-mails already went out with the order's events. */
export const ORDER_UPDATE_SENT_ON_CHANGE = 'The order e-mails are sent when the order changes';

export const ORDER_NOT_FOUND = 'Order not found';

/** The cause of an e-mail sent on request: the caller's Idempotency-Key, else this request's id. */
function requestCause(request: FastifyRequest): string {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key !== '' ? key : request.id;
}

export async function sendRoutes(app: ServiceApp, ctx: NotificationContext): Promise<void> {
  app.post(
    '/send/newEstimate',
    {
      preHandler: app.authenticate,
      schema: {
        summary:
          'Kept for the spec client: the new-estimate e-mails are sent on EstimateSubmitted, so this sends nothing',
        security: [{ session: [] }],
        querystring: NoQuery,
        // The POST /estimate body, checked loosely: the e-mails come from the stored estimate, not from this.
        body: Type.Object(
          { CartId: Type.String({ minLength: 1, maxLength: 64 }) },
          { additionalProperties: true },
        ),
        response: { 200: QueuedResult },
      },
    },
    async () => ({ result: { queued: false, message: NEW_ESTIMATE_SENT_ON_SUBMIT } }),
  );

  app.post(
    '/send/orderUpdate/:orderType/:orderId',
    {
      attachValidation: true,
      preHandler: [app.authenticate, refuseInvalid({})],
      schema: {
        summary:
          "Kept for the spec client: an order's e-mails are sent on its events (EstimateUpdated, InvoiceCreated, …), so this sends nothing. 404 unless the order is the caller's (staff: any order)",
        security: [{ session: [] }],
        querystring: NoQuery,
        params: Type.Object({
          orderType: Type.Union(
            ORDER_TYPES.map((t) => Type.Literal(t)),
            { 'x-message': 'must be estimate or invoice' },
          ),
          orderId: Type.String({ minLength: 1, maxLength: 64 }),
        }),
        // The client sends the order screen's cart and order; checked for shape only, extra content
        // ignored: the e-mails come from the order's events, not from this.
        body: Type.Object(
          {
            cart: Type.Object({}, { additionalProperties: true }),
            order: Type.Object({}, { additionalProperties: true }),
          },
          { additionalProperties: true },
        ),
        response: { 200: QueuedResult },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { orderType, orderId } = request.params;
      // Not known yet: perhaps its event is still on its way (an invoice created just now).
      let owner = await ctx.orderOwners.find(orderType, orderId);
      if (!owner) {
        await ctx.orderOwnersCaughtUp();
        owner = await ctx.orderOwners.find(orderType, orderId);
      }
      if (!owner || !user || (!hasRole(user, 'staff') && owner.userId !== user.id))
        throw notFound(ORDER_NOT_FOUND);
      return { result: { queued: false, message: ORDER_UPDATE_SENT_ON_CHANGE } };
    },
  );

  app.post(
    '/send/info',
    {
      attachValidation: true,
      preHandler: refuseInvalid({ email: INVALID_EMAIL }),
      schema: {
        summary: 'The contact form: e-mails the message to the staff, reply-to the visitor',
        querystring: NoQuery,
        headers: IdempotencyHeaders,
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 100 }),
            email: EmailAddress,
            phone: Type.Optional(Type.String({ maxLength: 40 })),
            message: Type.String({ minLength: 1, maxLength: 5000 }),
          },
          { additionalProperties: false },
        ),
        response: { 200: QueuedResult },
      },
    },
    async (request) => {
      const { name, message } = request.body;
      if (name.trim() === '') throw badRequest('name must not be empty');
      if (message.trim() === '') throw badRequest('message must not be empty');
      const email = enquiryEmail(ctx.brand, ctx.config.STAFF_EMAIL, request.body);
      await enqueueEmail(ctx.emails, `info.${requestCause(request)}`, email);
      return { result: { queued: true } };
    },
  );
}
