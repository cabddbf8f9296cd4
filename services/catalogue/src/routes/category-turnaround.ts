import { badRequest, notFound, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CatalogueContext } from '../context';
import { categoryTurnaround, MESSAGES, type TurnaroundInput } from '../domain/product-form';
import { categoryById } from '../store/reads';
import { type CategoryState, setCategoryTurnaround } from '../store/writes';
import { formAnswer } from './respond';
import { NoQuery, TurnaroundDays } from './schemas';

const CategoryParam = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'The category Id' }) },
  { additionalProperties: false },
);

const Days = (side: string) =>
  Type.Union([Type.Integer(), Type.Null()], {
    description: `Whole days kept free ${side} a booking of its products; null: the shop's default`,
  });

const CategoryTurnaroundView = Type.Object({
  Id: Type.String(),
  Name: Type.String(),
  before: Days('before'),
  after: Days('after'),
});

function view(c: CategoryState) {
  return { Id: c.id, Name: c.name, before: c.turnaroundBefore ?? null, after: c.turnaroundAfter ?? null };
}

const about =
  "Staff only (admin or superadmin): a visitor gets 401, a customer 403. A category's turnaround " +
  'buffer (issue 15) applies to the products filed under it that have none of their own, side by side; ' +
  'a side it leaves empty is the shop default (1 day before, 1 after).';

/** A top-level category's own turnaround buffer, read and set by staff from the product form. */
export async function categoryTurnaroundRoutes(app: ServiceApp, ctx: CatalogueContext): Promise<void> {
  const staff = { onRequest: app.requireRole('staff') };

  app.get(
    '/categories/:id/turnaround',
    {
      ...staff,
      schema: {
        summary: "A category's own turnaround buffer",
        description: `${about} 404 when there is no such category.`,
        security: [{ session: [] }],
        params: CategoryParam,
        querystring: NoQuery,
        response: { 200: Type.Object({ result: CategoryTurnaroundView }) },
      },
    },
    async (request) => {
      const doc = await categoryById(ctx, request.params.id);
      if (!doc) throw notFound(MESSAGES.categoryNotFound);
      return { result: view({ ...doc, id: doc._id }) };
    },
  );

  app.put(
    '/categories/:id/turnaround',
    {
      ...staff,
      schema: {
        summary: "Set a category's own turnaround buffer; publishes CategoryUpserted",
        description:
          `${about} The body replaces the buffer: a side left out, null or empty inherits. Only a ` +
          'top-level category has one (400 for a subcategory); 404 when there is no such category.',
        security: [{ session: [] }],
        params: CategoryParam,
        querystring: NoQuery,
        body: Type.Object(
          {
            before: Type.Optional(TurnaroundDays('Days kept free before a booking')),
            after: Type.Optional(TurnaroundDays('Days kept free after a booking')),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ result: CategoryTurnaroundView }) },
      },
    },
    async (request) => {
      const buffer = formAnswer(() => categoryTurnaround(request.body as TurnaroundInput));
      const found = await categoryById(ctx, request.params.id);
      if (!found) throw notFound(MESSAGES.categoryNotFound);
      if (found.parentId) throw badRequest(MESSAGES.turnaroundOfSubcategory);
      const saved = await setCategoryTurnaround(ctx, request.params.id, buffer, request.id);
      if (!saved) throw notFound(MESSAGES.categoryNotFound);
      return { result: view(saved) };
    },
  );
}
