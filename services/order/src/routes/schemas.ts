import { Type } from '@sinclair/typebox';

/**
 * Every text field's hard ceiling before trimming; the per-field limits (domain/details.ts) apply
 * to the trimmed value.
 */
const INPUT_CEILING = 5000;

const requiredText = (description?: string) =>
  Type.String({ maxLength: INPUT_CEILING, ...(description ? { description } : {}) });
/** Optional fields may also come as null (a cleared date or time picker). */
const optionalText = (description?: string) =>
  Type.Optional(
    Type.Union([Type.String({ maxLength: INPUT_CEILING }), Type.Null()], description ? { description } : {}),
  );

/** An id of another service's record in a body or query (cart ids, user ids). */
export const ForeignId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', 'x-message': 'Invalid {field}' });

/** Spec §3 Estimate request payload: CartId, status (Pending), event and will-call fields flattened in. */
export const SubmitEstimateBody = Type.Object(
  {
    CartId: ForeignId,
    status: Type.Literal('Pending', { 'x-message': "must be 'Pending'" }),
    customerName: optionalText("Ignored: the server sets the customer's company name"),
    groupName: requiredText(),
    eventDate: requiredText('YYYY-MM-DD, a real calendar date'),
    location: requiredText(),
    operationsManager: optionalText(),
    eventStartTime: optionalText(),
    eventEndTime: optionalText(),
    room: optionalText(),
    loadInTime: optionalText(),
    setByTime: optionalText(),
    strikeTime: optionalText(),
    commentsOnSetup: optionalText(),
    commentsOnEvent: optionalText(),
    willCallCustomerName: optionalText('Ignored: set to the customer name when will call is used'),
    willCallPickupDate: optionalText(),
    willCallPickupTime: optionalText(),
    willCallReturnDate: optionalText(),
    willCallReturnTime: optionalText(),
  },
  { additionalProperties: false },
);

/**
 * A client-chosen key per order request: the same key from the same customer always answers the
 * same estimate (a retried or doubled submission never makes a second one).
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const SubmittedResult = Type.Object({
  result: Type.Object({ id: Type.String(), DocNumber: Type.String() }),
});

const nullableText = Type.Union([Type.String(), Type.Null()]);

export const EstimateView = Type.Object({
  id: Type.String(),
  DocNumber: Type.String(),
  UserId: Type.String(),
  CartId: Type.String(),
  status: Type.String({ description: 'Pending, Open, Closed, Completed or Voided' }),
  hasBeenModified: Type.Boolean(),
  hasInvoice: Type.Boolean(),
  isInQbo: Type.Boolean(),
  qboId: nullableText,
  syncToken: nullableText,
  customerName: nullableText,
  groupName: nullableText,
  eventDate: nullableText,
  location: nullableText,
  operationsManager: nullableText,
  eventStartTime: nullableText,
  eventEndTime: nullableText,
  room: nullableText,
  loadInTime: nullableText,
  setByTime: nullableText,
  strikeTime: nullableText,
  commentsOnSetup: nullableText,
  commentsOnEvent: nullableText,
  willCallCustomerName: nullableText,
  willCallPickupDate: nullableText,
  willCallPickupTime: nullableText,
  willCallReturnDate: nullableText,
  willCallReturnTime: nullableText,
  subtotal: Type.Number({ description: 'Dollars: the sum of the lines' }),
  truckingFee: Type.Number({ description: 'Dollars' }),
  salesTax: Type.Number({ description: 'Dollars: 8.1 % of subtotal + trucking' }),
  total: Type.Number({ description: 'Dollars: subtotal + trucking + tax' }),
  createdAt: Type.String({ description: 'ISO date and time' }),
  CartProducts: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The product id (SKU)' }),
      name: Type.String(),
      description: Type.String(),
      qty: Type.Integer(),
      price: Type.Number({ description: 'Dollars, at submission' }),
      total: Type.Number({ description: 'Dollars: price × qty' }),
      qboId: nullableText,
    }),
  ),
  User: Type.Object({
    displayName: Type.String(),
    ownCompany: nullableText,
    email: Type.String(),
    qboId: nullableText,
  }),
});
