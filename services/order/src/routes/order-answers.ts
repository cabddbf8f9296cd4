/**
 * The order routes' edge helpers (not routes): who asks, what they may see, refusals as HTTP, the
 * answer with its buttons and header, and a PUT body as the lifecycle's edit command.
 */
import {
  type Actor,
  type EstimateView,
  type InvoiceView,
  ORDER_FIELD,
  type OrderType,
  type RefusalCode,
  refusalHttpStatus,
  refusalMessage,
  type StatusChange,
} from '@decor/contracts';
import { badRequest, HttpError, hasRole, type SessionUser } from '@decor/kit';
import type { FastifyReply } from 'fastify';
import { availableActions, type Command } from '../domain/decide';
import { DETAIL_FIELDS, type DetailsInput, parseDetails, withCustomerName } from '../domain/details';
import type { EstimateLine } from '../domain/estimate';
import { type CatalogueProduct, editedLines, type RequestedLine } from '../domain/lines';
import { canBeModified } from '../domain/modification';
import { type OrderRecord, orderView } from '../domain/view';

export const NOT_FOUND: Record<OrderType, string> = {
  estimate: 'Estimate not found',
  invoice: 'Invoice not found',
};

/** Who is asking, as the lifecycle and the events name them. */
export function actorOf(user: SessionUser): Actor {
  return { role: hasRole(user, 'staff') ? 'staff' : 'customer', userId: user.id };
}

/** A customer sees and changes only their own orders; staff, everyone's. */
export function visibleTo(user: SessionUser) {
  const staff = hasRole(user, 'staff');
  return (order: Pick<OrderRecord, 'userId'>) => staff || order.userId === user.id;
}

/** A refusal as every service answers it (403 who-may-ask, 409 a product rule; contracts' lifecycle). */
export function refusalError(code: RefusalCode, status: string): HttpError {
  return new HttpError(refusalHttpStatus(code), refusalMessage(code, status));
}

/** The order as the caller sees it, with the caller's buttons (contracts' views). */
export function viewFor(order: OrderRecord, actor: Actor, today: string): EstimateView | InvoiceView {
  return {
    ...orderView(order),
    // Who confirmed a sub-rental is the shop's business, not the customer's.
    ...(actor.role === 'staff' && order.subRental ? { subRental: order.subRental } : {}),
    actions: availableActions(order, actor, today),
  };
}

/** The order, its buttons, and the `can-be-modified` header (the lifecycle's edit, as the Edit button). */
export function sendOrder(reply: FastifyReply, order: OrderRecord, actor: Actor, today: string) {
  const view = viewFor(order, actor, today);
  return reply.header('can-be-modified', String(canBeModified(order, actor, today))).send({ result: view });
}

/** Customers never overbook: only staff may book beyond what is free. */
export const OVERBOOK_STAFF_ONLY = 'Only staff can book more than is available';

export type UpdateBody = Partial<Record<string, unknown>> & {
  status?: StatusChange;
  overbook?: boolean;
  /** The lines wanted: product and quantity (anything else a client sends about a line is ignored). */
  CartProducts?: RequestedLine[];
};

/**
 * The edit of a PUT, computed from the order as stored now: the sent fields replace the stored ones
 * (null or blank clears an optional one), the required ones must stay filled, the read-only names
 * may only be sent unchanged (400 otherwise) and are set by the server (the will-call name follows
 * whether will call is used); CartProducts are checked and priced by `editedLines` from the
 * catalogue's `products` (the totals are recomputed by `decide`).
 */
export function editCommand(
  order: OrderRecord,
  body: UpdateBody,
  products: ReadonlyMap<string, CatalogueProduct> = new Map(),
  staff = false,
): Command {
  const sentFields = DETAIL_FIELDS.filter((field) => body[field] !== undefined);
  let details: OrderRecord['details'] | undefined;
  if (sentFields.length > 0) {
    const merged: DetailsInput = { ...order.details };
    for (const field of sentFields) {
      const raw = body[field] as string | null;
      const value = raw === null ? '' : raw.trim();
      if (ORDER_FIELD[field].readOnly) {
        if (value !== '' && value !== (order.details[field] ?? '')) throw badRequest(`${field} is read-only`);
        continue;
      }
      merged[field] = value === '' ? undefined : value;
    }
    // Will call is in use while any will-call field is filled: when the client sent some, judge by
    // those (the stored read-only name alone does not keep it in use).
    if (sentFields.some((field) => ORDER_FIELD[field].willCall && !ORDER_FIELD[field].readOnly))
      merged.willCallCustomerName = undefined;
    const parsed = parseDetails(merged);
    if ('problem' in parsed) throw badRequest(parsed.problem);
    details = withCustomerName(parsed.details, order.details.customerName ?? order.customer.ownCompany ?? '');
  }
  let lines: EstimateLine[] | undefined;
  if (body.CartProducts) {
    const edited = editedLines(order.lines, body.CartProducts, products, staff);
    if ('refusal' in edited) throw new HttpError(edited.refusal.status, edited.refusal.message);
    lines = edited.lines;
  }
  return { action: 'edit', ...(details ? { details } : {}), ...(lines ? { lines } : {}) };
}
