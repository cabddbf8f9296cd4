import type { OrderType } from '@decor/contracts';
import type { BaseContext } from '@decor/kit';

/**
 * The one thing this service keeps about orders (it never asks the order service): whose each
 * estimate and invoice is, learnt from EstimateSubmitted and the order lifecycle events. It answers
 * "may this caller name this order" for POST /send/orderUpdate. An order's owner never changes, so
 * writing it again (a redelivery, a later event) is harmless and the order of events does not matter.
 */
export interface OrderOwner {
  /** `<orderType>:<orderId>` */
  _id: string;
  orderType: OrderType;
  orderId: string;
  userId: string;
}

export const ORDER_OWNERS_COLLECTION = 'order_owners';

export interface OrderOwners {
  remember(orderType: OrderType, orderId: string, userId: string): Promise<void>;
  find(orderType: OrderType, orderId: string): Promise<OrderOwner | null>;
}

export function orderOwners(connection: BaseContext['connection']): OrderOwners {
  const collection = () => connection.collection<OrderOwner>(ORDER_OWNERS_COLLECTION);
  const key = (orderType: OrderType, orderId: string) => `${orderType}:${orderId}`;
  return {
    async remember(orderType, orderId, userId) {
      try {
        await collection().updateOne(
          { _id: key(orderType, orderId) },
          { $set: { orderType, orderId, userId } },
          { upsert: true },
        );
      } catch (err) {
        // Two upserts of the same order at once: the other one inserted it, with the same owner.
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    },
    find: (orderType, orderId) => collection().findOne({ _id: key(orderType, orderId) }),
  };
}
