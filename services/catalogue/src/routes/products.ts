import {
  findList,
  type ListSpec,
  listQuerySchema,
  notFound,
  type ServiceApp,
  unauthorized,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CatalogueContext } from '../context';
import { categoryName, imageView, primaryFirst, productView } from '../domain/product';
import { type Product, productState } from '../store/product-model';
import { answer, cacheOptions, sendAnswer, viewerOf } from './respond';
import { ImageView, NoQuery, ProductView, SkuParam } from './schemas';

const CategoryFilter = Type.String({ minLength: 1, maxLength: 200 });

/**
 * Spec §7 product list: `?category=BARS&subcategory=Bar%20Front&subcategory=Back%20Bar&gt=quantity:0`
 * plus the list conventions (limit, offset, order, like). Category values may come as '{id}__{name}'.
 */
export const productListSpec = {
  orderFields: ['name', 'id', 'category', 'subcategory', 'createdAt'],
  defaultOrder: 'name:ASC',
  likeFields: ['name', 'id'],
  gtFields: ['quantity'],
  filters: {
    category: CategoryFilter,
    subcategory: Type.Array(CategoryFilter, { minItems: 1, maxItems: 50 }),
  },
  paths: { id: '_id' },
} satisfies ListSpec;

export const SIGN_IN_FOR_STOCK = 'Sign in to filter products by stock';

/** Documents without the relay's bookkeeping. */
const PRODUCT_FIELDS = { outbox: 0, outboxLeaseUntil: 0, outboxLeaseOwner: 0 } as const;

const productSummary =
  'Products (id = SKU). Price and quantity only for signed-in users; staff also see qboId and syncToken';

export async function productRoutes(app: ServiceApp, ctx: CatalogueContext): Promise<void> {
  app.get(
    '/product',
    {
      preHandler: app.optionalAuth,
      schema: {
        summary: `List products by category, subcategories and stock. ${productSummary}`,
        description:
          'Filters: `category`, `subcategory` (repeat for several), `gt=quantity:<n>` (anonymous visitors: ' +
          'only `gt=quantity:0`), `like=name:<prefix>` or `like=id:<prefix>`; ' +
          '`order=name:ASC` (default) and `limit`/`offset`; the total is in the `total_count` header.',
        security: [{}, { session: [] }],
        querystring: listQuerySchema(productListSpec),
        response: { 200: Type.Object({ result: Type.Array(ProductView) }) },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      // Stock is for signed-in users: "in stock or not" is all a visitor may ask, not how many.
      if (viewer === 'anonymous' && request.query.gt !== undefined && request.query.gt !== 'quantity:0') {
        throw unauthorized(SIGN_IN_FOR_STOCK);
      }
      const cached = await ctx.cache.get(
        `${viewer} ${request.url}`,
        async () => {
          const { category, subcategory, ...rest } = request.query;
          const query = {
            ...rest,
            ...(category === undefined ? {} : { category: categoryName(category) }),
            ...(subcategory === undefined ? {} : { subcategory: subcategory.map(categoryName) }),
          };
          const { items, total } = await findList<Product>(
            ctx.products,
            query,
            productListSpec,
            PRODUCT_FIELDS,
          );
          return answer(
            items.map((p) => productView(productState(p), viewer)),
            { total_count: String(total) },
          );
        },
        cacheOptions(request),
      );
      return sendAnswer(reply, cached);
    },
  );

  app.get(
    '/product/:id',
    {
      preHandler: app.optionalAuth,
      schema: {
        summary: `One product by SKU, as a one-item list like the product list. ${productSummary}`,
        security: [{}, { session: [] }],
        params: SkuParam,
        querystring: NoQuery,
        response: { 200: Type.Object({ result: Type.Array(ProductView, { minItems: 1, maxItems: 1 }) }) },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const cached = await ctx.cache.get(
        `${viewer} ${request.url}`,
        async () => {
          const product = await findProduct(ctx, request.params.id);
          return answer([productView(productState(product), viewer)]);
        },
        cacheOptions(request),
      );
      return sendAnswer(reply, cached);
    },
  );

  app.get(
    '/product/:id/image',
    {
      schema: {
        summary: "A product's images, primary first",
        params: SkuParam,
        querystring: NoQuery,
        response: { 200: Type.Object({ result: Type.Array(ImageView) }) },
      },
    },
    async (request, reply) => {
      const cached = await ctx.cache.get(
        `images ${request.url}`,
        async () => {
          const product = await findProduct(ctx, request.params.id);
          return answer(primaryFirst(product.images).map(imageView));
        },
        cacheOptions(request),
      );
      return sendAnswer(reply, cached);
    },
  );
}

async function findProduct(ctx: CatalogueContext, sku: string): Promise<Product> {
  const product = await ctx.products.findById(sku, PRODUCT_FIELDS).lean<Product>();
  if (!product) throw notFound('Product not found');
  return product;
}
