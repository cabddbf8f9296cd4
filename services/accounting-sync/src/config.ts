import { loadConfigOrExit, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const accountingSyncConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4105 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'accounting' }),
});

export type AccountingSyncConfig = ReturnType<typeof loadAccountingSyncConfig>;

export function loadAccountingSyncConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(accountingSyncConfigSchema, env);
}
