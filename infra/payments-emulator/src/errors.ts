/** Stripe's error bodies (`{ error: { type, code, message, param, … } }`) and the error the handlers throw. */

export type StripeErrorType = 'card_error' | 'invalid_request_error' | 'api_error' | 'idempotency_error';

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
}

/** Thrown by the domain; the API layer answers `{ error }` with `status`. */
export class StripeFault extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;

const invalid = (message: string, code?: string, param?: string, status = 400) =>
  new StripeFault(status, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: docUrl(code) } : {}),
    ...(param ? { param } : {}),
  });

export const stripeErrors = {
  missing: (param: string) => invalid(`Missing required param: ${param}.`, 'parameter_missing', param),
  unknownParam: (param: string) =>
    invalid(`Received unknown parameter: ${param}`, 'parameter_unknown', param),
  invalid: (param: string, message: string) => invalid(message, 'parameter_invalid_string', param),
  invalidInteger: (param: string) => invalid(`Invalid integer: ${param}`, 'parameter_invalid_integer', param),
  /** 404 for the resource in the path; 400 for one a parameter names. */
  noSuch: (what: string, id: string, param?: string) =>
    invalid(`No such ${what}: '${id}'`, 'resource_missing', param, param ? 400 : 404),
  alreadyRefunded: (charge: string) =>
    invalid(`Charge ${charge} has already been refunded.`, 'charge_already_refunded', 'charge'),
  unexpectedState: (message: string) => invalid(message, 'payment_intent_unexpected_state'),
  amountTooSmall: () => invalid('Amount must be at least $0.50 usd', 'amount_too_small', 'amount'),
  amountTooLarge: (message: string, param = 'amount') => invalid(message, 'amount_too_large', param),
  notFound: (method: string, path: string) =>
    invalid(`Unrecognized request URL (${method}: ${path}).`, undefined, undefined, 404),
  apiKey: (shown: string) =>
    invalid(
      shown
        ? `Invalid API Key provided: ${shown}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      undefined,
      undefined,
      401,
    ),
  publishableKey: () =>
    invalid(
      'This API call cannot be made with a publishable API key. Please use a secret API key.',
      'secret_key_required',
      undefined,
      401,
    ),
  idempotencyMismatch: (key: string) =>
    new StripeFault(400, {
      type: 'idempotency_error',
      message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    }),
  idempotencyInFlight: (key: string) =>
    new StripeFault(409, {
      type: 'idempotency_error',
      message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
    }),
  down: () =>
    new StripeFault(503, {
      type: 'api_error',
      message: 'The payments emulator is down (a fault set through its control API). Try again later.',
    }),
  card: (code: string, message: string, extra: Partial<StripeErrorBody> = {}) =>
    new StripeFault(402, { type: 'card_error', code, message, doc_url: docUrl(code), ...extra }),
};
