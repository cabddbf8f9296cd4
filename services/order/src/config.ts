import { loadConfigOrExit, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const orderConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4104 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'order' }),
});

export type OrderConfig = ReturnType<typeof loadOrderConfig>;

export function loadOrderConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(orderConfigSchema, env);
}
