import {
  badRequest,
  type ListSpec,
  listQuerySchema,
  type ServiceApp,
  toMongoList,
  unauthorized,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CatalogueContext } from '../context';
import { categoryName, imageView, primaryFirst, productView } from '../domain/product';
import { checkCategory, MESSAGES, newSku, type ProductInput, productFields } from '../domain/product-form';
import { deleteFilesLater } from '../jobs/image-jobs';
import { productState } from '../store/product-model';
import { categoryTree, productPage } from '../store/reads';
import { changeProduct, createProduct, deleteProduct, type StoredProduct } from '../store/writes';
import { answer, cacheOptions, findProduct, formAnswer, sendAnswer, viewerOf } from './respond';
import { ImageView, NoQuery, ProductInputSchema, ProductView, Sku, SkuParam } from './schemas';

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
          const { items, total } = await productPage(ctx, toMongoList(query, productListSpec));
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

  productWriteRoutes(app, ctx);
}

/** The product as staff see it (the answer of every write). */
function staffView(product: StoredProduct) {
  return productView(product, 'staff');
}

const staffOnly = 'Staff only (admin or superadmin): a visitor gets 401, a customer 403.';

function productWriteRoutes(app: ServiceApp, ctx: CatalogueContext): void {
  const staff = { onRequest: app.requireRole('staff') };

  app.post(
    '/product',
    {
      ...staff,
      schema: {
        summary: 'Create a product (spec §5 product form); publishes ProductUpserted',
        description:
          `${staffOnly} Every field is required; \`id\` is the SKU the admin types (unique: 409 when taken; ` +
          "a deleted product's SKU may be used again). `price` in dollars and `quantity` as numbers or numeric " +
          'text; the subcategory must belong to the category (names, or `{id}__{name}` pairs). ' +
          "`turnaroundBefore` / `turnaroundAfter` (optional): the product's own turnaround buffer in whole " +
          "days 0 to 30; left out, empty or null inherits its category's (else the shop's). Images are " +
          'added afterwards: `POST /product/{id}/presignedUrl`, then `POST /product/{id}/image`.',
        security: [{ session: [] }],
        querystring: NoQuery,
        body: ProductInputSchema,
        response: { 201: Type.Object({ result: ProductView }) },
      },
    },
    async (request, reply) => {
      const input = request.body as ProductInput;
      const { sku, fields } = formAnswer(() => ({ sku: newSku(input), fields: productFields(input) }));
      const tree = await categoryTree(ctx);
      formAnswer(() => checkCategory(tree, fields.category, fields.subcategory));
      const product: StoredProduct = { sku, ...fields, qboId: null, syncToken: null, images: [] };
      await createProduct(ctx, product, request.id, MESSAGES.skuTaken(sku));
      return reply.code(201).send({ result: staffView(product) });
    },
  );

  app.put(
    '/product/:id',
    {
      ...staff,
      schema: {
        summary: "Change a product's details (spec §5 product form); publishes ProductUpserted",
        description:
          `${staffOnly} Send the fields that change (at least one); the result must still satisfy every ` +
          'rule of the form (a new category needs a subcategory of it). `id` may be sent but must be the SKU ' +
          'of the URL: a SKU cannot change. `turnaroundBefore` / `turnaroundAfter` sent empty or null go back ' +
          "to inheriting the category's buffer. Images have their own calls.",
        security: [{ session: [] }],
        params: SkuParam,
        querystring: NoQuery,
        body: Type.Partial(ProductInputSchema, {
          additionalProperties: false,
          minProperties: 1,
          'x-message': 'Send at least one field to change',
        }),
        response: { 200: Type.Object({ result: ProductView }) },
      },
    },
    async (request) => {
      const input = request.body as ProductInput;
      const sku = request.params.id;
      if (input.id !== undefined && input.id !== sku) throw badRequest(MESSAGES.skuChanged);
      const tree = await categoryTree(ctx);
      const { after } = await changeProduct(ctx, sku, request.id, (current) => {
        const fields = formAnswer(() =>
          productFields({
            name: current.name,
            description: current.description,
            category: current.category,
            subcategory: current.subcategory,
            price: current.priceCents / 100,
            quantity: current.quantity,
            turnaroundBefore: current.turnaroundBefore ?? null,
            turnaroundAfter: current.turnaroundAfter ?? null,
            ...input,
          }),
        );
        const categoryChanged =
          fields.category !== current.category || fields.subcategory !== current.subcategory;
        if (categoryChanged) formAnswer(() => checkCategory(tree, fields.category, fields.subcategory));
        const next = { ...current, ...fields };
        const same = (Object.keys(fields) as (keyof typeof fields)[]).every((k) => fields[k] === current[k]);
        return same ? null : next;
      });
      return { result: staffView(after) };
    },
  );

  app.delete(
    '/product/:id',
    {
      ...staff,
      schema: {
        summary: 'Delete a product: gone from the site, its image files removed; publishes ProductDeleted',
        description:
          `${staffOnly} QuickBooks follows from the event (accounting-sync sets the item inactive). ` +
          '404 when the product is not on the site.',
        security: [{ session: [] }],
        params: SkuParam,
        querystring: NoQuery,
        response: { 200: Type.Object({ result: Type.Object({ id: Sku }) }) },
      },
    },
    async (request) => {
      const sku = request.params.id;
      const { keys, revision } = await deleteProduct(ctx, sku, request.id);
      await deleteFilesLater(ctx.imageQueue, `${sku}.${revision}`, keys);
      return { result: { id: sku } };
    },
  );
}
