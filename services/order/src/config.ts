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
   * cannot edit within 3 days of the event), e.g. America/Denver.
   */
  BUSINESS_TIME_ZONE: Type.String({
    pattern: '^(UTC|[A-Za-z_]+(/[A-Za-z0-9_+-]+)+)$',
    'x-message': 'must be an IANA time zone such as UTC or America/Denver',
    default: 'UTC',
  }),
});

export type OrderConfig = ReturnType<typeof loadOrderConfig>;

export function loadOrderConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(orderConfigSchema, env);
}
