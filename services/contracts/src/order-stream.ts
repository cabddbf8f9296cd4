/**
 * The live order stream (`GET /api/orders/events`, issue 9): the message the gateway sends as
 * `event: order` and an order screen reads, written once. A JSON schema (tests check the streamed
 * messages with it) and its type, which the orders frontend imports as a type only
 * (`@decor/contracts/rules`).
 */
import { type Static, Type } from '@sinclair/typebox';
import { ORDER_TYPES } from './order-events';

/** What the stream tells about one order change: never the order itself (no lines, no customer). */
export const OrderChange = Type.Object(
  {
    type: Type.String({ description: "The event type, e.g. 'InvoiceStatusChanged'" }),
    orderType: Type.Union(ORDER_TYPES.map((t) => Type.Literal(t))),
    id: Type.String(),
    status: Type.String(),
    revision: Type.Number({
      description: "The order's revision: 0 when created, one more with every change",
    }),
  },
  { additionalProperties: false },
);
export type OrderChange = Static<typeof OrderChange>;
