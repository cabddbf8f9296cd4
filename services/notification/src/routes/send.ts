import { ORDER_TYPES } from '@decor/contracts';
import { currentUser, hasRole, notFound, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { NotificationContext } from '../context';
import { NoQuery, QueuedResult } from './schemas';
import { refuseInvalid } from './validation';

/** The answer of POST /send/newEstimate: the e-mails already went out with EstimateSubmitted. */
export const NEW_ESTIMATE_SENT_ON_SUBMIT = 'The estimate e-mails are sent when the estimate is submitted';

/** The answer of POST /send/orderUpdate: the e-mails already went out with the order's events. */
export const ORDER_UPDATE_SENT_ON_CHANGE = 'The order e-mails are sent when the order changes';

export const ORDER_NOT_FOUND = 'Order not found';

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
}
