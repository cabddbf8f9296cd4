import { loadConfigOrExit, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const cartConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4103 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'cart' }),
});

export type CartConfig = ReturnType<typeof loadCartConfig>;

export function loadCartConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(cartConfigSchema, env);
}
