import { loadConfigOrExit, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

export const catalogueConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4102 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'catalogue' }),
});

export type CatalogueConfig = ReturnType<typeof loadCatalogueConfig>;

export function loadCatalogueConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(catalogueConfigSchema, env);
}
