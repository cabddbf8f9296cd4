import type { ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CatalogueContext } from '../context';
import { answer, cacheOptions, sendAnswer } from './respond';
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
          const all = await ctx.categories
            .find({}, { name: 1, parentId: 1 })
            .sort({ name: 1, _id: 1 })
            .lean();
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
}
