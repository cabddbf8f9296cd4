import { ORDER_TYPES } from '@decor/contracts';
import type { ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import { NoQuery, QueuedResult } from './schemas';
import { refuseInvalid } from './validation';

/** The answer of POST /send/newEstimate: the e-mails already went out with EstimateSubmitted. */
export const NEW_ESTIMATE_SENT_ON_SUBMIT = 'The estimate e-mails are sent when the estimate is submitted';

/** The answer of POST /send/orderUpdate: the e-mails already went out with the order's events. */
export const ORDER_UPDATE_SENT_ON_CHANGE = 'The order e-mails are sent when the order changes';

export async function sendRoutes(app: ServiceApp): Promise<void> {
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
          "Kept for the spec client: an order's e-mails are sent on its events (EstimateUpdated, InvoiceCreated, …), so this sends nothing and gives every caller the same answer for any order (no one learns whether an order exists)",
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
    // Looks nothing up: the answer is the same whoever asks about whichever order (README).
    async () => ({ result: { queued: false, message: ORDER_UPDATE_SENT_ON_CHANGE } }),
  );
}
