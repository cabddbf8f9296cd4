import type { Actor, EventEnvelope, OrderType, SubRental } from '@decor/contracts';
import {
  afterLostRace,
  conflict,
  findList,
  type ListSpec,
  newEvent,
  runFlow,
  stop,
  toMongoList,
} from '@decor/kit';
import { type Model, Types } from 'mongoose';
import type { OrderContext } from '../context';
import {
  type Command,
  type Decision,
  decide,
  type EventToPublish,
  invoiceCreatedEvent,
} from '../domain/decide';
import type { OrderRecord } from '../domain/view';
import { type Estimate, orderRecord } from './estimate-model';
import { type BookedChange, bookChange } from './order-bookings';
import { duplicateKeyField } from './writes';

/**
 * Every change of an estimate or invoice is ONE update of its document that also pushes the events
 * announcing it onto the document's outbox (the relay publishes them), the pattern of the cart
 * service's `changeCustomerCarts`: `decide` computes the change from the document as read (pure),
 * and the write applies only if the document still has the revision AND status it was read at;
 * otherwise it is recomputed from the fresh document. A change of lines, dates or status books
 * first (store/order-bookings.ts): a short line refuses it before anything is written.
 */

/** Never sent to clients: the relay's outbox and the idempotency bookkeeping. */
export const HIDDEN = { outbox: 0, outboxLeaseUntil: 0, outboxLeaseOwner: 0, idempotencyScope: 0 } as const;

const ATTEMPTS = 6;

export const CHANGED_MEANWHILE = 'This order was changed at the same time; please try again';

export function modelOf(ctx: OrderContext, orderType: OrderType): Model<Estimate> {
  return orderType === 'invoice' ? ctx.invoices : ctx.estimates;
}

export async function readOrder(
  ctx: OrderContext,
  orderType: OrderType,
  id: string,
): Promise<OrderRecord | null> {
  if (!Types.ObjectId.isValid(id)) return null;
  const doc = await modelOf(ctx, orderType).findById(id, HIDDEN).lean<Estimate>();
  return doc ? orderRecord(doc, orderType) : null;
}

/**
 * One page of orders of a type as a list query asks (filters, order, paging; `spec` says which), and
 * only those `where` matches too (a filter the route computes, e.g. issue 30's acceptance state).
 */
export async function listOrders(
  ctx: OrderContext,
  orderType: OrderType,
  query: Record<string, unknown>,
  spec: ListSpec,
  where?: Record<string, unknown>,
): Promise<{ items: Estimate[]; total: number }> {
  const model = modelOf(ctx, orderType);
  if (!where) return findList(model, query, spec, HIDDEN);
  const { filter, sort, skip, limit } = toMongoList(query, spec);
  const both = { $and: [filter, where] };
  const [items, total] = await Promise.all([
    model.find(both, HIDDEN).sort(sort).skip(skip).limit(limit).lean<Estimate[]>().exec(),
    model.countDocuments(both).exec(),
  ]);
  return { items, total };
}

/** The invoice an earlier request with this `<userId>:<Idempotency-Key>` made, if any. */
export async function invoiceByScope(
  ctx: OrderContext,
  idempotencyScope: string,
): Promise<OrderRecord | null> {
  const doc = await ctx.invoices.findOne({ idempotencyScope }, HIDDEN).lean<Estimate>();
  return doc ? orderRecord(doc, 'invoice') : null;
}

export function envelopes(
  events: EventToPublish[],
  aggregateId: string,
  correlationId: string,
): EventEnvelope[] {
  return events.map((e) => newEvent(e.contract, { aggregateId, correlationId, payload: e.payload }));
}

/** The guard of a write: the revision and status it was computed from (documents before revisions: 0). */
function guardOf(order: OrderRecord) {
  return {
    _id: order.id,
    status: order.status,
    revision: order.revision === 0 ? { $in: [0, null] } : order.revision,
  };
}

/**
 * What a caller writes in the same update as the decision, computed from the order as it will be
 * (`next`, revision included) and the decision's fields: issue 30's offer of a sent estimate, so the
 * status and the offer (with EstimateOffered) cannot be split by a crash between two writes.
 */
export type WrittenAlongside = (
  next: OrderRecord,
  set: object,
) => Promise<{ set: Record<string, unknown>; events: EventEnvelope[] } | undefined>;

export interface OrderChangeOutcome {
  /** The order after the call (unchanged when refused or when nothing changed); null: no such order. */
  order: OrderRecord | null;
  decision: Decision | null;
  /** Whether events were stored (the caller may wait for them with `eventsPublished`). */
  published: boolean;
}

/**
 * Reads the order, asks `decide` and writes its decision with its events in one guarded update, as
 * a flow (the kit's `runFlow`): "book what the changed order will hold", "write the order with its
 * events", "release what the order no longer holds". A lost race (another write changed revision or
 * status) stops the flow and recomputes from the fresh document a few times, then answers 409. A refusal or an empty decision writes nothing. `command` may be computed
 * from the order as read (an edit merges the sent fields into the stored ones); `visible` hides
 * another customer's order (null, as if it did not exist); `alongside` adds to the same write.
 */
export async function changeOrder(
  ctx: OrderContext,
  orderType: OrderType,
  id: string,
  command: Command | ((order: OrderRecord) => Command),
  actor: Actor,
  correlationId: string,
  visible: (order: OrderRecord) => boolean = () => true,
  options: {
    /** Staff's explicit sub-rental: book beyond the free units, recorded on the order as confirmed by `by`. */
    overbook?: { by: string };
    alongside?: WrittenAlongside;
  } = {},
): Promise<OrderChangeOutcome> {
  const model = modelOf(ctx, orderType);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const order = await readOrder(ctx, orderType, id);
    if (!order || !visible(order)) return { order: null, decision: null, published: false };
    const resolved = typeof command === 'function' ? command(order) : command;
    const decision = decide(order, resolved, actor, ctx.today());
    if (!decision.ok || Object.keys(decision.set).length === 0) return { order, decision, published: false };
    // Lines, dates or status may change what the order holds: booked (or refused) before the write.
    const touchesBooking = ['lines', 'details', 'status'].some((field) => field in decision.set);
    // What other services already did (QuickBooks synced, an invoice made) is never refused for stock:
    // the order keeps its units, overbooked if need be (the conflicts list shows it).
    const settled = resolved.action === 'qboSynced' || resolved.action === 'invoiced';
    let booked: BookedChange | undefined;
    let subRental: SubRental | undefined;
    const also = await options.alongside?.(
      { ...order, ...(decision.set as Partial<OrderRecord>), revision: order.revision + 1 },
      decision.set,
    );
    const events = [...envelopes(decision.events, id, correlationId), ...(also?.events ?? [])];
    const lost = await runFlow<OrderContext, 'changed meanwhile'>(
      `change an ${orderType}`,
      ctx,
      [
        touchesBooking && {
          // A short line throws ShortLinesError, nothing booked. No undo: a write that then fails or
          // loses the race leaves unconfirmed holds the sweeper puts back in line with the stored order.
          name: 'book what the changed order will hold',
          run: async () => {
            const next = { ...order, ...(decision.set as Partial<OrderRecord>) };
            booked = await bookChange(ctx, order, next, { overbook: !!options.overbook || settled });
            if (options.overbook && booked.overbooked.length > 0)
              subRental = { by: options.overbook.by, at: new Date().toISOString(), lines: booked.overbooked };
          },
        },
        {
          name: 'write the order with its events',
          run: async () => {
            const res = await model.updateOne(guardOf(order), {
              $set: { ...decision.set, ...also?.set, ...(subRental ? { subRental } : {}) },
              $inc: { revision: 1 },
              ...(events.length > 0 ? { $push: { outbox: { $each: events } } } : {}),
            });
            if (res.matchedCount === 0) return stop('changed meanwhile' as const);
            if (events.length > 0) ctx.eventsWritten();
          },
        },
        { name: 'release what the order no longer holds', run: async () => booked?.afterWrite() },
      ],
      ctx.log,
    );
    if (!lost) {
      const after: OrderRecord = {
        ...order,
        ...(decision.set as Partial<OrderRecord>),
        ...(subRental ? { subRental } : {}),
        revision: order.revision + 1,
      };
      return { order: after, decision, published: events.length > 0 };
    }
    // Another request or handler wrote first: back off a little (with jitter) and recompute.
    await afterLostRace(attempt);
  }
  throw conflict(CHANGED_MEANWHILE);
}

export type InvoiceInsert =
  | { inserted: OrderRecord }
  /** Another invoice of this estimate exists (or this Idempotency-Key made one): it won the race. */
  | { duplicate: true };

/**
 * Invoice creation (spec §4): the invoice is a copy of the estimate's order (details, lines, totals,
 * customer) in status Pending, not in QuickBooks, with the estimate's id; it gets the estimate's
 * DocNumber (QuickBooks numbers invoices and estimates separately, so invoice 1005 is the invoice of
 * estimate 1005: staff and customers find both by one number; one invoice per estimate keeps it
 * unique). InvoiceCreated sits in the new document's outbox (one insert). The unique index on
 * `estimateId` decides a race of two requests: one insert wins.
 */
export async function insertInvoice(
  ctx: OrderContext,
  estimate: OrderRecord,
  actor: Actor,
  idempotencyScope: string | undefined,
  correlationId: string,
): Promise<InvoiceInsert> {
  const _id = new Types.ObjectId();
  const invoice: OrderRecord = {
    ...estimate,
    orderType: 'invoice',
    id: _id.toString(),
    estimateId: estimate.id,
    status: 'Pending',
    hasBeenModified: false,
    hasInvoice: false,
    isInQbo: false,
    qboId: null,
    syncToken: null,
    createdAt: new Date(),
    revision: 0,
  };
  const [event] = envelopes([invoiceCreatedEvent(invoice, actor)], invoice.id, correlationId);
  try {
    await ctx.invoices.create({
      _id,
      docNumber: invoice.docNumber,
      userId: invoice.userId,
      cartId: invoice.cartId,
      estimateId: estimate.id,
      ...(idempotencyScope ? { idempotencyScope } : {}),
      status: 'Pending',
      hasBeenModified: false,
      hasInvoice: false,
      isInQbo: false,
      qboId: null,
      syncToken: null,
      details: invoice.details,
      lines: invoice.lines,
      subtotalCents: invoice.subtotalCents,
      truckingCents: invoice.truckingCents,
      taxCents: invoice.taxCents,
      totalCents: invoice.totalCents,
      customer: invoice.customer,
      subRental: invoice.subRental,
      createdAt: invoice.createdAt,
      revision: 0,
      outbox: [event],
    });
  } catch (err) {
    if (duplicateKeyField(err) === undefined) throw err;
    return { duplicate: true };
  }
  ctx.eventsWritten();
  return { inserted: invoice };
}

/**
 * The second of the invoice's two writes: its estimate becomes Closed with hasInvoice (and
 * publishes EstimateStatusChanged). Two guarded single-document writes cannot be one transaction
 * here, so the pair is made safe by idempotency instead: the request that created the invoice
 * closes the estimate right away, AND this service's own consumer of InvoiceCreated (group
 * `invoices`) does the same from the event. The event is in the invoice's own insert, so it exists
 * exactly when the invoice does; a crash after the insert leaves it in the outbox, the relay
 * publishes it after the restart and the consumer closes the estimate (Kafka keeps redelivering
 * until the handler succeeded). Closing twice is harmless: `decide` makes a Closed estimate's
 * 'invoiced' a no-op, so whichever comes second writes nothing.
 */
export function closeInvoicedEstimate(
  ctx: OrderContext,
  estimateId: string,
  actor: Actor,
  correlationId: string,
): Promise<OrderChangeOutcome> {
  return changeOrder(ctx, 'estimate', estimateId, { action: 'invoiced' }, actor, correlationId);
}
