import { Type } from '@sinclair/typebox';

/**
 * The caller's `Idempotency-Key`: a retried request with the same key sends its e-mail once. Without
 * it, the request id (which the gateway keeps for one user action) is the cause.
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_.:-]{1,128}$',
      'x-message': 'must be 1 to 128 letters, digits, dots, dashes, underscores or colons',
    }),
  ),
});

export const QueuedResult = Type.Object({
  result: Type.Object({
    queued: Type.Boolean({ description: 'True when an e-mail was queued for sending' }),
    message: Type.Optional(Type.String()),
  }),
});

/** Routes that take no query parameters refuse unknown ones like every other input. */
export const NoQuery = Type.Object({}, { additionalProperties: false });
