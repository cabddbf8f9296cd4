import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';
import { MESSAGE_KEYWORD } from './validation-messages';

type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];
type RouteSchemaDef = { schema: unknown; httpPart?: string; method: string; url: string };

/**
 * Ajv options shared by every part. `verbose` puts the failing schema on each error so routes can word
 * their own message (`x-message`); `allErrors` stays off (one message per request, and no DoS on huge input).
 */
const shared = { useDefaults: true, removeAdditional: false, allErrors: false, verbose: true } as const;

/**
 * Bodies arrive as JSON with real types: a string where a number belongs is a client bug, so no
 * coercion. Query strings and path params are text by nature, so they are coerced ('array' also
 * turns `?ids=a` into `['a']`). Unknown properties are never stripped silently: they fail.
 */
const BODY_OPTIONS = { ...shared, coerceTypes: false } as const;
const TEXT_OPTIONS = { ...shared, coerceTypes: 'array' } as const;

/**
 * Objects are closed by default: a schema object with `properties` and no `additionalProperties`
 * rejects unknown fields (so `{ "$where": … }` is a 400 even where a route forgot to say so).
 * `allOf` members are left open because intersections rely on it. Returns a copy; TypeBox
 * schemas are shared between routes and must not be mutated.
 */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, closeObjects(sub)]));
    } else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'not') {
      out[key] = closeObjects(value);
    } else {
      out[key] = value;
    }
  }
  if (
    source.properties &&
    source.additionalProperties === undefined &&
    source.patternProperties === undefined &&
    source.unevaluatedProperties === undefined
  ) {
    out.additionalProperties = false;
  }
  return out;
}

/** Validator factory for Fastify's `schemaController`: one Ajv for bodies, one for text parts. */
export function buildValidatorFactory(): ValidatorFactory {
  const bodyPool = AjvCompiler();
  const textPool = AjvCompiler();
  const onCreate = (ajv: { addKeyword(def: { keyword: string; schemaType: string }): unknown }) => {
    ajv.addKeyword({ keyword: MESSAGE_KEYWORD, schemaType: 'string' });
  };
  const factory = (externalSchemas: Record<string, unknown>, serverOptions?: { plugins?: unknown[] }) => {
    const plugins = serverOptions?.plugins ?? [];
    const forBody = bodyPool(
      externalSchemas as never,
      { customOptions: BODY_OPTIONS, onCreate, plugins } as never,
    );
    const forText = textPool(
      externalSchemas as never,
      { customOptions: TEXT_OPTIONS, onCreate, plugins } as never,
    );
    return (route: RouteSchemaDef) => {
      const compile = route.httpPart === 'body' ? forBody : forText;
      const schema =
        route.httpPart === 'body' || route.httpPart === 'querystring'
          ? closeObjects(route.schema)
          : route.schema;
      return (compile as unknown as (def: RouteSchemaDef) => unknown)({ ...route, schema });
    };
  };
  return factory as unknown as ValidatorFactory;
}
