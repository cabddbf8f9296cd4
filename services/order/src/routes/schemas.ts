import { type EstimateDetailField, ORDER_FIELDS, STATUS_CHANGES, type StatusChange } from '@decor/contracts';
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

type OptionalText = ReturnType<typeof optionalText>;
type DetailProperties = { [K in EstimateDetailField]: OptionalText };

/**
 * The 18 event and will-call fields as body properties, from contracts' one fields table: on
 * submission the required ones are required strings, the others optional strings or null; on an
 * update every one is optional (absent: unchanged; null or blank: cleared, refused for a required one).
 */
function detailProperties(mode: 'submit' | 'update'): DetailProperties {
  return Object.fromEntries(
    ORDER_FIELDS.map((f) => {
      const description = f.readOnly
        ? mode === 'submit'
          ? "Read-only: set by the server to the customer's company"
          : 'Read-only: another value than the stored one is refused (400)'
        : f.kind === 'date'
          ? 'YYYY-MM-DD'
          : undefined;
      const schema = mode === 'submit' && f.required ? requiredText(description) : optionalText(description);
      return [f.name, schema];
    }),
  ) as unknown as DetailProperties;
}

/** A 24-hex id of this service's records in a body or query (estimate ids). */
export const ObjectIdText = Type.String({ pattern: '^[0-9a-fA-F]{24}$', 'x-message': 'Invalid {field}' });

/** Spec §3 Estimate request payload: CartId, status (Pending), event and will-call fields flattened in. */
export const SubmitEstimateBody = Type.Object(
  {
    CartId: ForeignId,
    status: Type.Literal('Pending', { 'x-message': "must be 'Pending'" }),
    ...detailProperties('submit'),
  },
  { additionalProperties: false },
);

/**
 * A line as the client wants it on PUT: the product (SKU) and how many. Name, description, price and
 * qboId may come along (the screens echo the lines they show) but are ignored: the server takes them
 * from the catalogue (domain/lines.ts), and computes the totals.
 */
export const OrderLineInput = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, description: 'The product id (SKU)' }),
    qty: Type.Integer({ minimum: 1, maximum: 100_000, description: "1 to the product's stock" }),
    name: Type.Optional(Type.String({ maxLength: 500, description: 'Ignored' })),
    description: Type.Optional(Type.String({ maxLength: 5000, description: 'Ignored' })),
    price: Type.Optional(Type.Number({ description: 'Ignored: the catalogue price is used' })),
    total: Type.Optional(Type.Number({ description: 'Ignored' })),
    qboId: Type.Optional(
      Type.Union([Type.String({ maxLength: 100 }), Type.Null()], { description: 'Ignored' }),
    ),
  },
  { additionalProperties: false },
);

function updateBody(statuses: readonly StatusChange[], invoice = false) {
  return Type.Object(
    {
      status: Type.Optional(
        Type.Union(
          statuses.map((s) => Type.Literal(s)),
          { 'x-message': `must be ${statuses.map((s) => `'${s}'`).join(' or ')}` },
        ),
      ),
      ...detailProperties('update'),
      CartProducts: Type.Optional(
        Type.Array(OrderLineInput, {
          maxItems: 500,
          description:
            'The new lines (at least one): staff add products and change or remove any; customers change quantities and remove lines',
        }),
      ),
      overbook: Type.Optional(
        Type.Boolean({
          description:
            'Staff only: book the lines even beyond what is free (a sub-rental), confirmed on purpose; the booking is marked overbooked',
        }),
      ),
      ...(invoice
        ? {
            depositAction: Type.Optional(
              Type.Union([Type.Literal('refund'), Type.Literal('keep')], {
                description:
                  "With { status: 'Voided' }: the deposit taken from its accepted estimate is refunded or kept (required when one was taken)",
                'x-message': "must be 'refund' or 'keep'",
              }),
            ),
          }
        : {}),
    },
    { additionalProperties: false },
  );
}

/** PUT /estimate/{id}: event and will-call fields, staff also CartProducts; or { status: 'Voided' }. */
export const UpdateEstimateBody = updateBody(STATUS_CHANGES.estimate);
/** PUT /invoice/{id}: as an estimate, or a status change (cancel, complete: STATUS_CHANGES.invoice). */
export const UpdateInvoiceBody = updateBody(STATUS_CHANGES.invoice, true);

export const CreateInvoiceBody = Type.Object({ EstimateId: ObjectIdText }, { additionalProperties: false });

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
