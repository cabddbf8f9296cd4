import { badRequest, notFound, OBJECT_ID_PATTERN, objectId, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CartContext } from '../context';
import { findCart, MAX_LINES_PER_CART, MESSAGES, removeLines, saveLines } from '../domain/cart';
import { productsBySku } from '../store/product-model';
import { changeCustomerCarts } from '../store/writes';
import { changedViews, customersOnly, oneCartView, owned } from './access';
import { CartRows, IgnoredPrice, LineIdParam, NoQuery, OneCart, Qty, Sku } from './schemas';

const session = [{ session: [] }];

/** Most ids one deleteBulk call takes (a cart holds at most this many lines). */
const MAX_BULK_IDS = MAX_LINES_PER_CART;
const HEX_ID = new RegExp(OBJECT_ID_PATTERN);

/** `?ids=a,b,c` (or `?ids=a&ids=b`): the distinct line ids, each checked. */
export function bulkIds(raw: readonly string[]): string[] {
  const ids = [...new Set(raw.flatMap((v) => v.split(',')).map((v) => v.trim()))].filter((v) => v !== '');
  if (ids.length === 0) throw badRequest('ids must name at least one cart line');
  if (ids.length > MAX_BULK_IDS) throw badRequest(`ids must name at most ${MAX_BULK_IDS} cart lines`);
  if (!ids.every((id) => HEX_ID.test(id))) throw badRequest('Invalid ids');
  return ids;
}

const BulkItem = Type.Object(
  {
    ProductId: Sku,
    CartId: objectId({ description: 'Cart id' }),
    qty: Qty,
    price: IgnoredPrice,
  },
  { additionalProperties: false },
);

export async function cartProductRoutes(app: ServiceApp, ctx: CartContext): Promise<void> {
  const writer = { onRequest: [app.authenticate, customersOnly] };

  app.delete(
    '/cartProduct/deleteBulk',
    {
      ...writer,
      schema: {
        summary: 'Remove several cart lines at once (all or none); answers every touched cart',
        security: session,
        querystring: Type.Object(
          {
            ids: Type.Array(Type.String({ maxLength: 50 * MAX_BULK_IDS }), {
              minItems: 1,
              maxItems: MAX_BULK_IDS,
              description: 'CartProductIds, comma-separated (or the parameter repeated)',
            }),
          },
          { additionalProperties: false },
        ),
        response: { 200: CartRows },
      },
    },
    async (request) => {
      const ids = bulkIds(request.query.ids);
      const { state, change } = await changeCustomerCarts(ctx, request.user.id, request.id, (s, clock) =>
        removeLines(s, ids, clock),
      );
      return { result: await changedViews(ctx, state, change?.changed ?? []) };
    },
  );

  app.delete(
    '/cartProduct/:id',
    {
      ...writer,
      schema: {
        summary: 'Remove one cart line (by CartProductId); answers its cart',
        security: session,
        params: LineIdParam,
        querystring: NoQuery,
        response: { 200: OneCart },
      },
    },
    async (request) => {
      const { state, change } = await changeCustomerCarts(ctx, request.user.id, request.id, (s, clock) =>
        removeLines(s, [request.params.id], clock),
      );
      const cartId = change?.changed[0] as string;
      return { result: await oneCartView(ctx, owned(state, findCart(state, cartId))) };
    },
  );

  for (const path of ['/saveBulk/cartProduct', '/saveBulk/cartProduct/:userId']) {
    app.post(
      path,
      {
        ...writer,
        schema: {
          summary: 'Set the quantities of several products in carts at once (all or none)',
          description:
            'Each item sets a line like POST /cart/{id}/cartProduct/{productId}. With `userId`, it must be ' +
            "the caller's own id. Answers every touched cart.",
          security: session,
          ...(path.endsWith(':userId')
            ? { params: Type.Object({ userId: objectId() }, { additionalProperties: false }) }
            : {}),
          querystring: NoQuery,
          body: Type.Array(BulkItem, { minItems: 1, maxItems: MAX_LINES_PER_CART }),
          response: { 200: CartRows },
        },
      },
      async (request) => {
        const userId = request.user.id;
        const pathUser = (request.params as { userId?: string }).userId;
        if (pathUser !== undefined && pathUser !== userId) throw notFound(MESSAGES.cartNotFound);
        const items = request.body;
        const products = await productsBySku(
          ctx.products,
          items.map((i) => i.ProductId),
        );
        const { state, change } = await changeCustomerCarts(ctx, userId, request.id, (s, clock) =>
          saveLines(
            s,
            items.map((i) => ({ cartId: i.CartId, productId: i.ProductId, qty: i.qty })),
            (sku) => products.get(sku) ?? null,
            clock,
            (index, message) => `Item ${index + 1} (${items[index]?.ProductId}): ${message}`,
          ),
        );
        return { result: await changedViews(ctx, state, change?.changed ?? []) };
      },
    );
  }
}
