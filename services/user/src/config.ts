import { loadConfigOrExit, qboConnectConfigSchema, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const userConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4101 }),
  /** How long the staff lists' in-memory roster may live without a user event (0: always ask Mongo). */
  USER_ROSTER_TTL_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 60_000 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'user' }),
  /** Demo accounts created on first start with an empty database (never in production). */
  DEMO_PASSWORD: Type.String({ minLength: 3, default: 'demo1234' }),
  DEMO_SUPERADMIN_EMAIL: Type.String({ default: 'owner@decor.example' }),
  DEMO_ADMIN_EMAIL: Type.String({ default: 'staff@decor.example' }),
  DEMO_CUSTOMER_EMAIL: Type.String({ default: 'customer@decor.example' }),
  /** Failed sign-ins per e-mail within the window before sign-in answers 429 (src/routes/sign-in-limits.ts). */
  SIGN_IN_FAILURES_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 10_000, default: 10 }),
  SIGN_IN_FAILURE_WINDOW_MINUTES: Type.Integer({ minimum: 1, maximum: 1440, default: 15 }),
  /** Password reset e-mails per address and hour. */
  RESETS_PER_ACCOUNT_PER_HOUR: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 5 }),
  /** Staff sign-in sends staff to QuickBooks while the company is not connected. */
  ...qboConnectConfigSchema,
});

export type UserConfig = ReturnType<typeof loadUserConfig>;

export function loadUserConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(userConfigSchema, env);
}
