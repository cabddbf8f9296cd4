import { createHash } from 'node:crypto';
import { conflict, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CatalogueContext } from '../context';
import { type CategoryInput, categoryFields, MESSAGES } from '../domain/product-form';
import { categoriesByName, categoryTree } from '../store/reads';
import { createCategoryIfMissing } from '../store/writes';
import { answer, cacheOptions, formAnswer, sendAnswer } from './respond';
import { NoQuery } from './schemas';

const CategoryView = Type.Object({ Id: Type.String(), Name: Type.String() });
const SubcategoryView = Type.Object({
  Id: Type.String(),
  Name: Type.String(),
  ParentRef: Type.Object({ value: Type.String({ description: 'Id of the parent category' }) }),
});

export async function categoryRoutes(app: ServiceApp, ctx: CatalogueContext): Promise<void> {
  app.get(
    '/categories',
    {
      schema: {
        summary: 'The category tree as two lists: categories, and subcategories naming their parent',
        querystring: NoQuery,
        response: {
          200: Type.Object({
            result: Type.Object({
              categories: Type.Array(CategoryView),
              subcategories: Type.Array(SubcategoryView),
            }),
          }),
        },
      },
    },
    async (request, reply) => {
      const cached = await ctx.cache.get(
        'categories',
        async () => {
          const all = await categoriesByName(ctx);
          return answer({
            categories: all.filter((c) => !c.parentId).map((c) => ({ Id: c._id, Name: c.name })),
            subcategories: all
              .filter((c) => c.parentId)
              .map((c) => ({ Id: c._id, Name: c.name, ParentRef: { value: c.parentId as string } })),
          });
        },
        cacheOptions(request),
      );
      return sendAnswer(reply, cached);
    },
  );

  app.post(
    '/categories',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary:
          'Create a category, or a subcategory of one (spec §5 category form); publishes CategoryUpserted',
        description:
          'Staff only (admin or superadmin): a visitor gets 401, a customer 403. `name` required; with ' +
          "`isSubCategory: true`, `parent` (the parent category's Id, or its name) is required and must be a " +
          'top-level category. Names are unique among the categories, and among the subcategories of one ' +
          'parent (409). Answers the new entry as `GET /categories` lists it.',
        security: [{ session: [] }],
        querystring: NoQuery,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ maxLength: 200 })),
            isSubCategory: Type.Optional(Type.Boolean()),
            parent: Type.Optional(
              Type.String({
                maxLength: 200,
                description: "The parent category's Id (or name); subcategories only",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            result: Type.Object({
              Id: Type.String(),
              Name: Type.String(),
              ParentRef: Type.Optional(SubcategoryView.properties.ParentRef),
            }),
          }),
        },
      },
    },
    async (request, reply) => {
      const tree = await categoryTree(ctx);
      const { name, parentId } = formAnswer(() => categoryFields(tree, request.body as CategoryInput));
      // The id follows from the place and the name, so two admins adding the same one make one.
      const id = createHash('sha256')
        .update(`${parentId ?? ''}/${name.toLowerCase()}`)
        .digest('hex')
        .slice(0, 12);
      const created = await createCategoryIfMissing(
        ctx,
        { id, name, ...(parentId ? { parentId } : {}) },
        request.id,
      );
      if (!created) {
        const parent = tree.find((c) => c.id === parentId);
        throw conflict(parent ? MESSAGES.subcategoryTaken(name, parent.name) : MESSAGES.categoryTaken(name));
      }
      ctx.catalogueChanged();
      await ctx.eventsPublished();
      return reply
        .code(201)
        .send({ result: { Id: id, Name: name, ...(parentId ? { ParentRef: { value: parentId } } : {}) } });
    },
  );
}
