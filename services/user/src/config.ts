import { loadConfigOrExit, qboConnectConfigSchema, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const userConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4101 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'user' }),
  /** Demo accounts created on first start with an empty database (never in production). */
  DEMO_PASSWORD: Type.String({ minLength: 3, default: 'demo1234' }),
  DEMO_SUPERADMIN_EMAIL: Type.String({ default: 'owner@decor.example' }),
  DEMO_ADMIN_EMAIL: Type.String({ default: 'staff@decor.example' }),
  DEMO_CUSTOMER_EMAIL: Type.String({ default: 'customer@decor.example' }),
  /** Staff sign-in sends staff to QuickBooks while the company is not connected. */
  ...qboConnectConfigSchema,
});

export type UserConfig = ReturnType<typeof loadUserConfig>;

export function loadUserConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(userConfigSchema, env);
}
