import { MAX_TURNAROUND_DAYS } from '@decor/contracts';
import { loadConfigOrExit, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const orderConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4104 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'order' }),
  /**
   * The trucking fee in dollars until the catalogue's first TruckingFeeChanged arrives (spec §9:
   * trucking has a minimum charge of 350). The catalogue announces its fee at start, so this only
   * covers a fresh deployment whose catalogue events have not been read yet.
   */
  TRUCKING_FEE_DEFAULT: Type.Number({ minimum: 0, maximum: 1_000_000, default: 350 }),
  /**
   * The IANA time zone whose calendar decides "today" for the 3-day edit rule (spec §9: customers
   * cannot edit within 3 days of the event) and for bookings, e.g. America/Denver.
   */
  SHOP_TIME_ZONE: Type.String({
    pattern: '^(UTC|[A-Za-z_]+(/[A-Za-z0-9_+-]+)+)$',
    'x-message': 'must be an IANA time zone such as UTC or America/Denver',
    default: 'UTC',
  }),
  /** The shop's turnaround buffer (whole days before and after every booking) unless overridden. */
  TURNAROUND_BEFORE_DAYS: Type.Integer({ minimum: 0, maximum: MAX_TURNAROUND_DAYS, default: 1 }),
  TURNAROUND_AFTER_DAYS: Type.Integer({ minimum: 0, maximum: MAX_TURNAROUND_DAYS, default: 1 }),
  /** Whether customers' Pending requests hold stock (issue 15: a shop setting, default yes). */
  PENDING_REQUESTS_HOLD_STOCK: Type.Boolean({ default: true }),
  /** Holds written but not yet seen on their order for this long are reconciled by the sweeper. */
  HOLD_RECONCILE_AFTER_MS: Type.Integer({ minimum: 1000, default: 30_000 }),
});

export type OrderConfig = ReturnType<typeof loadOrderConfig>;

export function loadOrderConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(orderConfigSchema, env);
}
