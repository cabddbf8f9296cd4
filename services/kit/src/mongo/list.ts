import {
  type Static,
  type TInteger,
  type TObject,
  type TOptional,
  type TProperties,
  type TString,
  Type,
} from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Model } from 'mongoose';
import { badRequest } from '../http/errors';

/**
 * The one list syntax of every GET-list route (the spec's lazy lists):
 *   ?limit=20&offset=0                 page (defaults 20 / 0, limit at most 100)
 *   ?order=createdAt:DESC              sort by one allowed field, ASC or DESC
 *   ?like=name:Chiav                   case-insensitive prefix match on one allowed field
 *   ?gt=quantity:0                     greater-than on one allowed numeric field
 *   ?isActive=true&category=Linens     equality filters declared by the route (repeat a key for "any of")
 * The answer is `{ result: [...] }` with the total in the `total_count` header.
 */
export interface ListSpec<F extends TProperties = TProperties> {
  orderFields: readonly string[];
  defaultOrder: string;
  likeFields?: readonly string[];
  gtFields?: readonly string[];
  /** Equality filters: query field → value schema (Type.Boolean(), Type.String(), objectId(), Type.Array(...)). */
  filters?: F;
  /** Query field → document path, where the client's name differs from the stored one. */
  paths?: Record<string, string>;
  defaultLimit?: number;
  maxLimit?: number;
}

type OptionalAll<F extends TProperties> = { [K in keyof F]: TOptional<F[K]> };
export type ListQueryProperties<F extends TProperties> = {
  limit: TOptional<TInteger>;
  offset: TOptional<TInteger>;
  order: TOptional<TString>;
  like: TOptional<TString>;
  gt: TOptional<TString>;
} & OptionalAll<F>;
export type ListQuery<F extends TProperties = TProperties> = Static<TObject<ListQueryProperties<F>>>;

export interface MongoList {
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  skip: number;
  limit: number;
}

/** Escapes regex syntax, so a client's prefix is matched literally (and is valid under Ajv's 'u' flag). */
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const oneOf = (fields: readonly string[]) => `(${fields.map(escapeRegex).join('|')})`;

/** Querystring schema for a list route; unknown parameters and fields outside the spec are a 400. */
export function listQuerySchema<F extends TProperties = Record<never, never>>(
  spec: ListSpec<F>,
): TObject<ListQueryProperties<F>> {
  const properties: TProperties = {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: spec.maxLimit ?? 100, default: spec.defaultLimit ?? 20 }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    order: Type.Optional(
      Type.String({
        pattern: `^${oneOf(spec.orderFields)}:(ASC|DESC|asc|desc)$`,
        'x-message': `must be '<field>:ASC' or '<field>:DESC' with field one of: ${spec.orderFields.join(', ')}`,
      }),
    ),
  };
  if (spec.likeFields?.length) {
    properties.like = Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: `^${oneOf(spec.likeFields)}:`,
        'x-message': `must be '<field>:<prefix>' with field one of: ${spec.likeFields.join(', ')}`,
      }),
    );
  }
  if (spec.gtFields?.length) {
    properties.gt = Type.Optional(
      Type.String({
        pattern: `^${oneOf(spec.gtFields)}:-?\\d+(\\.\\d+)?$`,
        'x-message': `must be '<field>:<number>' with field one of: ${spec.gtFields.join(', ')}`,
      }),
    );
  }
  for (const [name, schema] of Object.entries(spec.filters ?? {})) properties[name] = Type.Optional(schema);
  return Type.Object(properties, { additionalProperties: false }) as TObject<ListQueryProperties<F>>;
}

function splitPair(value: string, allowed: readonly string[] | undefined, what: string): [string, string] {
  const at = value.indexOf(':');
  const field = value.slice(0, at);
  if (at < 0 || !allowed?.includes(field))
    throw badRequest(`${what} must name one of: ${(allowed ?? []).join(', ')}`);
  return [field, value.slice(at + 1)];
}

function isPlain(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * The validated query as a mongoose find: `Model.find(filter).sort(sort).skip(skip).limit(limit)`.
 * Re-checks every field against the spec and accepts only plain values, so no client-sent object
 * (`{ "$ne": … }`) or regex can reach the database even if a route skipped the schema.
 */
export function toMongoList<F extends TProperties>(
  query: Partial<ListQuery<F>>,
  spec: ListSpec<F>,
): MongoList {
  const q = query as Record<string, unknown>;
  const path = (field: string) => spec.paths?.[field] ?? field;
  const filter: Record<string, unknown> = {};

  for (const name of Object.keys(spec.filters ?? {})) {
    const value = q[name];
    if (value === undefined) continue;
    if (isPlain(value)) filter[path(name)] = value;
    else if (Array.isArray(value) && value.every(isPlain)) filter[path(name)] = { $in: value };
    else throw badRequest(`${name} must be a plain value`);
  }
  if (typeof q.like === 'string') {
    const [field, prefix] = splitPair(q.like, spec.likeFields, 'like');
    // Case-insensitive only where case can differ: an 'i' regex cannot use an index's bounds on
    // MongoDB (it reads every key), and a prefix without cased characters ('10', a DocNumber) matches the same
    // strings either way (issue 31).
    const cased = prefix.toLowerCase() !== prefix || prefix.toUpperCase() !== prefix;
    filter[path(field)] = cased
      ? { $regex: `^${escapeRegex(prefix)}`, $options: 'i' }
      : { $regex: `^${escapeRegex(prefix)}` };
  }
  if (typeof q.gt === 'string') {
    const [field, raw] = splitPair(q.gt, spec.gtFields, 'gt');
    const bound = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(bound)) throw badRequest('gt must be <field>:<number>');
    const existing = filter[path(field)];
    filter[path(field)] =
      existing && typeof existing === 'object' ? { ...existing, $gt: bound } : { $gt: bound };
  }

  const [orderField, direction] = splitPair(
    typeof q.order === 'string' ? q.order : spec.defaultOrder,
    spec.orderFields,
    'order',
  );
  // _id breaks ties so pages never repeat or skip a document between requests.
  const dir = direction.toUpperCase() === 'ASC' ? 1 : -1;
  const sort: Record<string, 1 | -1> = { [path(orderField)]: dir };
  if (path(orderField) !== '_id') sort._id = dir;

  const maxLimit = spec.maxLimit ?? 100;
  const limit = Math.min(typeof q.limit === 'number' ? q.limit : (spec.defaultLimit ?? 20), maxLimit);
  const skip = typeof q.offset === 'number' ? q.offset : 0;
  if (!Number.isInteger(limit) || limit < 1) throw badRequest(`limit must be between 1 and ${maxLimit}`);
  if (!Number.isInteger(skip) || skip < 0) throw badRequest('offset must be at least 0');
  return { filter, sort, skip, limit };
}

/** Runs the page query and the count together. Documents come back lean (plain objects). */
export async function findList<T>(
  model: Model<T>,
  query: Partial<ListQuery>,
  spec: ListSpec,
  projection?: Record<string, 0 | 1>,
): Promise<{ items: T[]; total: number }> {
  const { filter, sort, skip, limit } = toMongoList(query, spec);
  const [items, total] = await Promise.all([
    model.find(filter, projection).sort(sort).skip(skip).limit(limit).lean().exec(),
    model.countDocuments(filter).exec(),
  ]);
  return { items: items as T[], total };
}

/** The spec's list answer: `{ result: items }` and the total in the `total_count` header. */
export function sendList(reply: FastifyReply, items: readonly unknown[], total: number) {
  return reply.header('total_count', String(total)).send({ result: items });
}
