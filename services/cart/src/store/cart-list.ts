import { type ListQuery, type ListSpec, objectId, toMongoList } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { PipelineStage } from 'mongoose';
import type { CartContext } from '../context';
import type { Cart } from '../domain/cart';
import type { OwnedCart } from '../domain/view';

/**
 * Spec §7 list carts: `?didCheckOut=false&order=createdAt:DESC&limit=20&offset=0` plus the list
 * conventions; staff may filter by customer with `UserId`.
 */
export const cartListSpec = {
  orderFields: ['createdAt', 'cartName', 'id'],
  defaultOrder: 'createdAt:DESC',
  likeFields: ['cartName'],
  filters: {
    didCheckOut: Type.Boolean(),
    isActive: Type.Boolean(),
    UserId: objectId({ description: "Staff: one customer's carts" }),
  },
  paths: { UserId: 'userId' },
} satisfies ListSpec;

type Row = Cart & { userId: string; isActive: boolean };

/**
 * One page of carts and the total. Carts live inside their customer's document, so the page is an
 * aggregation: one row per cart (`$unwind`) carrying its owner and `isActive` (computed from the
 * document's `activeCartId`), then the usual filter, sort and page. `owner` limits it to one
 * customer (a customer's own list); staff leave it out to list everyone's carts.
 */
export async function listCarts(
  ctx: CartContext,
  query: Partial<ListQuery>,
  owner?: string,
): Promise<{ items: OwnedCart[]; total: number }> {
  const { filter, sort, skip, limit } = toMongoList(query, cartListSpec);
  // Rows have no _id: the cart id breaks ties so pages never repeat or skip a cart.
  const order = Object.fromEntries(Object.entries(sort).map(([k, v]) => [k === '_id' ? 'id' : k, v]));
  const docs: Record<string, unknown> = {};
  if (owner !== undefined) docs._id = owner;
  if (typeof filter.userId === 'string') {
    if (owner !== undefined && owner !== filter.userId) return { items: [], total: 0 };
    docs._id = filter.userId;
  }
  const pipeline: PipelineStage[] = [
    { $match: docs },
    { $unwind: '$carts' },
    {
      $replaceRoot: {
        newRoot: {
          $mergeObjects: ['$carts', { userId: '$_id', isActive: { $eq: ['$carts.id', '$activeCartId'] } }],
        },
      },
    },
    { $match: filter },
    {
      $facet: {
        page: [{ $sort: order }, { $skip: skip }, { $limit: limit }],
        total: [{ $count: 'n' }],
      },
    },
  ];
  const [result] = await ctx.customerCarts.aggregate<{ page: Row[]; total: { n: number }[] }>(pipeline);
  const items = (result?.page ?? []).map(({ userId, isActive, ...cart }) => ({
    userId,
    isActive,
    cart: {
      id: cart.id,
      cartName: cart.cartName,
      didCheckOut: cart.didCheckOut ?? false,
      createdAt: new Date(cart.createdAt),
      updatedAt: new Date(cart.updatedAt ?? cart.createdAt),
      lines: (cart.lines ?? []).map((l) => ({ ...l, qboId: l.qboId ?? null })),
    },
  }));
  return { items, total: result?.total[0]?.n ?? 0 };
}
