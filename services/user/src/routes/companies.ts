import { CompanyChanges, CompanyView, NewCompany } from '@decor/contracts';
import { listQuerySchema, objectIdParam, type ServiceApp, sendList } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import {
  attributesOf,
  COMPANY_ATTRIBUTES,
  companyChangeRefusal,
  companyFields,
  keepAttributes,
  newCompanyFields,
  newCompanyRefusal,
} from '../domain/companies';
import { MESSAGES } from '../domain/refusals';
import { changeCompany, createCompany, deleteCompany, liveCompanyById } from '../store/companies';
import { publicCompany } from '../store/company-model';
import { COMPANY_LIST, listCompanies } from '../store/lists';
import { orNotFound, orRefuse, refuseIf } from './refusals';
import { Deleted } from './schemas';

export async function companyRoutes(app: ServiceApp, ctx: UserContext): Promise<void> {
  const staffOnly = app.requireRole('staff');

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
      const wanted = orRefuse(attributesOf(attributes));
      const { items, total } = await listCompanies(ctx, query);
      return sendList(reply, keepAttributes(items.map(publicCompany), wanted), total);
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
      const company = orNotFound(await liveCompanyById(ctx, request.params.id), 'companyNotFound');
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
        body: NewCompany,
        response: { 201: Type.Object({ result: CompanyView }) },
      },
    },
    async (request, reply) => {
      const input = request.body;
      refuseIf(newCompanyRefusal(input));
      const company = orRefuse(await createCompany(ctx, newCompanyFields(input), request.id));
      return reply.code(201).send({ result: publicCompany(company) });
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
        body: CompanyChanges,
        response: { 200: Type.Object({ result: CompanyView }) },
      },
    },
    async (request) => {
      const input = request.body;
      refuseIf(companyChangeRefusal(input));
      const company = orRefuse(await changeCompany(ctx, request.params.id, companyFields(input), request.id));
      return { result: publicCompany(company) };
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
        response: { 200: Deleted },
      },
    },
    async (request) => {
      const { id } = request.params;
      refuseIf(await deleteCompany(ctx, id, request.id));
      return { result: { id, message: MESSAGES.companyDeleted } };
    },
  );
}
