import { conflict, listQuerySchema, objectId, type ServiceApp, sendList } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { CartContext } from '../context';
import { copyCart, createCart, deleteCart, findCart, MESSAGES, setLineQty, updateCart } from '../domain/cart';
import { cartListSpec, listCarts } from '../store/cart-list';
import { productsBySku } from '../store/product-model';
import { changeCustomerCarts, ensureCustomerCarts } from '../store/writes';
import { cartViews, customersOnly, isStaff, oneCartView, owned, readableCart } from './access';
import { CartIdParam, CartRows, IgnoredPrice, NoQuery, OneCart, Qty, Sku } from './schemas';

const session = [{ session: [] }];
const IsActiveQuery = Type.Object(
  { isActive: Type.Optional(Type.Boolean({ description: 'Answer the cart only if its flag matches' })) },
  { additionalProperties: false },
);

export async function cartRoutes(app: ServiceApp, ctx: CartContext): Promise<void> {
  const writer = { onRequest: [app.authenticate, customersOnly] };

  app.get(
    '/cart',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "A customer's carts (staff: every customer's), newest first",
        description:
          'Filters `didCheckOut`, `isActive` and for staff `UserId`; `like=cartName:<prefix>`; ' +
          '`order=createdAt:DESC` (default), `cartName` or `id`; `limit`/`offset`; the total is in `total_count`.',
        security: session,
        querystring: listQuerySchema(cartListSpec),
        response: { 200: CartRows },
      },
    },
    async (request, reply) => {
      let owner: string | undefined;
      if (!isStaff(request)) {
        owner = request.user.id;
        await ensureCustomerCarts(ctx, owner, request.id);
      }
      const { items, total } = await listCarts(ctx, request.query, owner);
      return sendList(reply, await cartViews(ctx, items), total);
    },
  );

  for (const path of ['/cart/:id', '/cart/:id/products']) {
    app.get(
      path,
      {
        onRequest: app.authenticate,
        schema: {
          summary: 'One cart with its lines, as a one-row list (cartTotal in the row)',
          description:
            "A customer's own cart, or any cart for staff. With `isActive` the row comes only if it matches.",
          security: session,
          params: CartIdParam,
          querystring: IsActiveQuery,
          response: { 200: CartRows },
        },
      },
      async (request) => {
        const cart = await readableCart(ctx, request, request.params.id);
        const { isActive } = request.query;
        if (isActive !== undefined && isActive !== cart.isActive) return { result: [] };
        return { result: await cartViews(ctx, [cart]) };
      },
    );
  }

  app.post(
    '/cart',
    {
      ...writer,
      schema: {
        summary: 'Create a cart (always inactive; spec §4)',
        security: session,
        querystring: NoQuery,
        body: Type.Object(
          {
            cartName: Type.Optional(
              Type.String({ description: "1 to 100 characters, trimmed; default 'My Cart'" }),
            ),
            isActive: Type.Optional(Type.Boolean({ description: 'Only false: a new cart is inactive' })),
          },
          { additionalProperties: false },
        ),
        response: { 201: OneCart },
      },
    },
    async (request, reply) => {
      const { state, change } = await changeCustomerCarts(ctx, request.user.id, request.id, (s, clock) =>
        createCart(s, request.body ?? {}, clock),
      );
      const cartId = change?.changed[0] as string;
      reply.code(201);
      return { result: await oneCartView(ctx, owned(state, findCart(state, cartId))) };
    },
  );

  app.put(
    '/cart/:id',
    {
      ...writer,
      schema: {
        summary: 'Rename a cart and/or make it the active one',
        description:
          '`isActive: true` makes this the active cart and the previous one inactive, atomically. ' +
          'The active cart cannot be made inactive (activate another); only an order submission checks a cart out.',
        security: session,
        params: CartIdParam,
        querystring: NoQuery,
        body: Type.Object(
          {
            cartName: Type.Optional(Type.String({ description: '1 to 100 characters, trimmed' })),
            isActive: Type.Optional(Type.Boolean()),
            didCheckOut: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: OneCart },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { state } = await changeCustomerCarts(ctx, request.user.id, request.id, (s, clock) =>
        updateCart(s, id, request.body, clock),
      );
      return { result: await oneCartView(ctx, owned(state, findCart(state, id))) };
    },
  );

  app.put(
    '/cart/:id/copy/:targetCartId',
    {
      ...writer,
      schema: {
        summary: "Add a cart's lines into another cart (answers the target)",
        description:
          'The same product adds up, capped at the current stock; copied lines take the current catalogue ' +
          'price; products no longer in the catalogue or out of stock are skipped. The source may be a submitted cart.',
        security: session,
        params: Type.Object(
          {
            id: objectId({ description: 'Source cart' }),
            targetCartId: objectId({ description: 'Target cart' }),
          },
          { additionalProperties: false },
        ),
        querystring: NoQuery,
        response: { 200: OneCart },
      },
    },
    async (request) => {
      const { id, targetCartId } = request.params;
      const userId = request.user.id;
      // The products are read before the write; if the source gained lines meanwhile, try again.
      const before = await ensureCustomerCarts(ctx, userId, request.id);
      const skus = new Set(findCart(before, id).lines.map((l) => l.productId));
      const products = await productsBySku(ctx.products, skus);
      const { state } = await changeCustomerCarts(ctx, userId, request.id, (s, clock) => {
        if (findCart(s, id).lines.some((l) => !skus.has(l.productId)))
          throw conflict(MESSAGES.changedMeanwhile);
        return copyCart(s, id, targetCartId, (sku) => products.get(sku) ?? null, clock);
      });
      return { result: await oneCartView(ctx, owned(state, findCart(state, targetCartId))) };
    },
  );

  app.delete(
    '/cart/:id',
    {
      ...writer,
      schema: {
        summary: 'Delete an inactive cart that was not submitted',
        security: session,
        params: CartIdParam,
        querystring: NoQuery,
        response: { 200: Type.Object({ result: Type.Object({ id: Type.String() }) }) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await changeCustomerCarts(ctx, request.user.id, request.id, (s) => deleteCart(s, id));
      return { result: { id } };
    },
  );

  app.post(
    '/cart/:id/cartProduct/:productId',
    {
      ...writer,
      schema: {
        summary: "Set a product's quantity in a cart (adds the line if missing)",
        description:
          "The quantity is SET, not added: a whole number from 1 to the product's current stock. " +
          "The line takes the catalogue's current price; a price sent by the client is ignored.",
        security: session,
        params: Type.Object(
          { id: objectId({ description: 'Cart id' }), productId: Sku },
          { additionalProperties: false },
        ),
        querystring: NoQuery,
        body: Type.Object({ qty: Qty, price: IgnoredPrice }, { additionalProperties: false }),
        response: { 200: OneCart },
      },
    },
    async (request) => {
      const { id, productId } = request.params;
      const products = await productsBySku(ctx.products, [productId]);
      const { state } = await changeCustomerCarts(ctx, request.user.id, request.id, (s, clock) =>
        setLineQty(s, id, productId, products.get(productId) ?? null, request.body.qty, clock),
      );
      return { result: await oneCartView(ctx, owned(state, findCart(state, id))) };
    },
  );
}
