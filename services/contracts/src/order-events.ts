import { Type } from '@sinclair/typebox';
import { defineEvent } from './envelope';

export * from './estimate-fields';

export const EstimateLine = Type.Object({
  productId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  qty: Type.Integer({ minimum: 1 }),
  priceCents: Type.Integer({ minimum: 0 }),
  totalCents: Type.Integer({ minimum: 0 }),
  qboId: Type.Optional(Type.String()),
});

/**
 * A customer submitted an order request (spec §4). The cart service checks the cart out and opens a
 * new active cart from it; the notification service e-mails the customer and the staff.
 */
export const EstimateSubmitted = defineEvent(
  'EstimateSubmitted',
  1,
  'order',
  Type.Object({
    estimateId: Type.String(),
    docNumber: Type.String(),
    status: Type.Literal('Pending'),
    userId: Type.String(),
    cartId: Type.String(),
    customer: Type.Object({
      email: Type.String(),
      displayName: Type.String(),
      companyName: Type.Optional(Type.String()),
    }),
    /** Every event-detail and will-call field the customer filled in, by its spec name. */
    details: Type.Record(Type.String(), Type.String()),
    lines: Type.Array(EstimateLine),
    subtotalCents: Type.Integer({ minimum: 0 }),
    truckingCents: Type.Integer({ minimum: 0 }),
    taxCents: Type.Integer({ minimum: 0 }),
    totalCents: Type.Integer({ minimum: 0 }),
    submittedAt: Type.String(),
  }),
);
