import {
  badRequest,
  conflict,
  type ListSpec,
  listQuerySchema,
  notFound,
  objectIdParam,
  type ServiceApp,
  sendList,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import { Types } from 'mongoose';
import type { UserContext } from '../context';
import { companyProblem, MESSAGES, present, trimmed } from '../domain/admin-rules';
import {
  type Company,
  companyDeletedEvent,
  companyKeys,
  companyUpsertedEvent,
  publicCompany,
} from '../store/company-model';
import { changeDocument, isDuplicateKey } from '../store/writes';
import { listFilter, notBeingDeleted } from './admin-users';

export const COMPANY_LIST: ListSpec = {
  orderFields: ['displayName', 'name', 'createdAt'],
  defaultOrder: 'createdAt:DESC',
  likeFields: ['name', 'displayName'],
  paths: { name: 'nameKey', displayName: 'displayNameKey' },
};

export const COMPANY_ATTRIBUTES = [
  'id',
  'name',
  'displayName',
  'street',
  'city',
  'state',
  'zipCode',
  'phone',
  'qboId',
] as const;

const Nullable = Type.Union([Type.String(), Type.Null()]);
export const CompanyView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  street: Nullable,
  city: Nullable,
  state: Nullable,
  zipCode: Nullable,
  phone: Nullable,
  qboId: Nullable,
});

const Text = (max = 200) => Type.String({ maxLength: max });
const CompanyFields = {
  name: Type.Optional(Text()),
  displayName: Type.Optional(Text()),
  street: Type.Optional(Text()),
  city: Type.Optional(Text()),
  state: Type.Optional(Text(100)),
  zipCode: Type.Optional(Text(20)),
  // Optional: empty or null clears it.
  phone: Type.Optional(Type.Union([Text(50), Type.Null()])),
};
type CompanyInput = Partial<Record<Exclude<keyof typeof CompanyFields, 'phone'>, string>> & {
  phone?: string | null;
  qboId?: string;
};

/** `attributes=id,name` or repeated: the fields each row keeps (unknown names → 400). */
export function attributesOf(raw: unknown): (typeof COMPANY_ATTRIBUTES)[number][] | undefined {
  if (raw === undefined) return undefined;
  const names = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(',')).map((v) => v.trim());
  const wanted = names.filter(Boolean);
  const unknown = wanted.find((n) => !(COMPANY_ATTRIBUTES as readonly string[]).includes(n));
  if (unknown !== undefined)
    throw badRequest(`attributes must name some of: ${COMPANY_ATTRIBUTES.join(', ')} (not '${unknown}')`);
  return wanted as (typeof COMPANY_ATTRIBUTES)[number][];
}

/** A company's editable fields, trimmed; the display name always equals the name (spec §3). */
function companyFields(input: CompanyInput) {
  const body = trimmed(input);
  const set: Record<string, string | null> = {};
  for (const key of ['street', 'city', 'state', 'zipCode'] as const)
    if (body[key] !== undefined) set[key] = body[key];
  if (body.phone !== undefined) set.phone = present(body.phone) ? body.phone : null;
  if (body.name !== undefined) {
    set.name = body.name;
    set.displayName = body.name;
  }
  return set;
}

export async function companyRoutes(app: ServiceApp, ctx: UserContext): Promise<void> {
  const staffOnly = app.requireRole('staff');
  const live = (id: string) => ctx.companies.findOne({ _id: id, deletedAt: null }).lean<Company>();

  const listQuery = listQuerySchema(COMPANY_LIST);
  app.get(
    '/company',
    {
      onRequest: staffOnly,
      schema: {
        summary: 'Staff: companies, 20 at a time; total in total_count',
        description:
          'like=<name|displayName>:<prefix> (case-insensitive); order=<displayName|name|createdAt>:<ASC|DESC> ' +
          `(default createdAt:DESC); attributes=<comma list of ${COMPANY_ATTRIBUTES.join(', ')}>; limit, offset.`,
        security: [{ session: [] }],
        querystring: Type.Object(
          {
            ...listQuery.properties,
            attributes: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ result: Type.Array(Type.Partial(CompanyView)) }) },
      },
    },
    async (request, reply) => {
      const { attributes, ...query } = request.query as Record<string, unknown>;
      const wanted = attributesOf(attributes);
      const { filter, sort, skip, limit } = listFilter(query, COMPANY_LIST);
      const [items, total] = await Promise.all([
        ctx.companies.find(filter).sort(sort).skip(skip).limit(limit).lean<Company[]>(),
        ctx.companies.countDocuments(filter),
      ]);
      const rows = items.map(publicCompany);
      const shown =
        wanted && wanted.length > 0
          ? rows.map((row) => Object.fromEntries(wanted.map((k) => [k, row[k]])))
          : rows;
      return sendList(reply, shown, total);
    },
  );

  app.get(
    '/company/:id',
    {
      onRequest: staffOnly,
      schema: {
        summary: 'Staff: one company',
        security: [{ session: [] }],
        params: objectIdParam,
        response: { 200: Type.Object({ result: CompanyView }) },
      },
    },
    async (request) => {
      const company = await live(request.params.id);
      if (!company) throw notFound(MESSAGES.companyNotFound);
      return { result: publicCompany(company) };
    },
  );

  app.post(
    '/company',
    {
      onRequest: staffOnly,
      schema: {
        summary:
          'Staff: create a company (its display name is its name); qboId when imported from QuickBooks',
        security: [{ session: [] }],
        body: Type.Object(
          { ...CompanyFields, qboId: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })) },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ result: CompanyView }) },
      },
    },
    async (request, reply) => {
      const body = trimmed(request.body);
      const problem = companyProblem(body);
      if (problem) throw badRequest(problem);
      const _id = new Types.ObjectId();
      const fields = {
        _id,
        ...companyFields(body),
        ...(present(body.qboId) ? { qboId: body.qboId } : {}),
      } as unknown as Company;
      const doc = new ctx.companies({
        ...fields,
        ...companyKeys(fields),
        revision: 1,
        outbox: [companyUpsertedEvent(fields, request.id)],
      });
      try {
        await doc.save();
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict(MESSAGES.companyNameTaken);
        throw err;
      }
      ctx.eventsWritten();
      return reply.code(201).send({ result: publicCompany(doc.toObject() as Company) });
    },
  );

  app.put(
    '/company/:id',
    {
      onRequest: staffOnly,
      schema: {
        summary: 'Staff: change a company (the display name follows the name)',
        security: [{ session: [] }],
        params: objectIdParam,
        body: Type.Object(CompanyFields, { additionalProperties: false }),
        response: { 200: Type.Object({ result: CompanyView }) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const body = trimmed(request.body);
      if (Object.keys(body).length === 0) throw badRequest(MESSAGES.nothingToChange);
      const problem = companyProblem(body, { partial: true });
      if (problem) throw badRequest(problem);
      const set = companyFields(body);
      let updated: Company | null;
      try {
        updated = await changeDocument<Company>(
          ctx.companies,
          id,
          () => live(id),
          (current) => {
            const next = { ...current, ...set } as Company;
            const changed = Object.keys(set).some(
              (k) => (current[k as keyof Company] ?? null) !== (next[k as keyof Company] ?? null),
            );
            if (!changed) return null;
            return {
              set: { ...set, ...companyKeys(next) },
              events: [companyUpsertedEvent(next, request.id)],
            };
          },
        );
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict(MESSAGES.companyNameTaken);
        throw err;
      }
      if (!updated) throw notFound(MESSAGES.companyNotFound);
      return { result: publicCompany(updated) };
    },
  );

  app.delete(
    '/company/:id',
    {
      onRequest: staffOnly,
      schema: {
        summary: 'Staff: delete a company that has no customers (409 while it has)',
        security: [{ session: [] }],
        params: objectIdParam,
        response: {
          200: Type.Object({ result: Type.Object({ id: Type.String(), message: Type.String() }) }),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      // Mark first, then look for customers: a customer created meanwhile either is counted here or
      // sees the mark after its own insert and is undone (routes/admin-users.ts), never orphaned.
      const marked = await ctx.companies
        .findOneAndUpdate(
          { _id: id, deletedAt: null, ...notBeingDeleted() },
          { $set: { deleting: new Date() } },
        )
        .lean<Company>();
      if (!marked) {
        if (await live(id)) throw conflict(MESSAGES.changedMeanwhile);
        throw notFound(MESSAGES.companyNotFound);
      }
      const customers = await ctx.users.countDocuments({ CompanyId: id, deletedAt: null });
      if (customers > 0) {
        await ctx.companies.updateOne({ _id: id }, { $set: { deleting: null } });
        throw conflict(MESSAGES.companyHasCustomers);
      }
      await ctx.companies.updateOne(
        { _id: id },
        {
          $set: {
            deletedAt: new Date(),
            deleting: null,
            // The name is freed for a new company; the event carries the old one.
            name: `deleted.${id}`,
            displayName: `deleted.${id}`,
            nameKey: `deleted.${id}`,
            displayNameKey: `deleted.${id}`,
          },
          $inc: { revision: 1 },
          $push: { outbox: companyDeletedEvent(marked, request.id) },
        },
      );
      ctx.eventsWritten();
      return { result: { id, message: MESSAGES.companyDeleted } };
    },
  );
}
