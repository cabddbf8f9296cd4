/**
 * The order service's side of the lifecycle (spec §4, §6): the tables, refusal codes and `permission`
 * are one module in contracts (`services/contracts/src/lifecycle.ts`), shared with accounting-sync
 * and the frontends; here, ONE `decide` that every caller in this service uses — the routes (PUT,
 * POST /invoice), the event handlers (QuickBooks outcomes, the invoice's estimate closing) and the
 * `actions` the API gives the UI — adds what the order's change sets and which events it publishes.
 * Pure: no I/O, no HTTP statuses (the routes map refusal codes to those, `refusalHttpStatus`).
 */
import {
  type Actor,
  type EstimateDetailField,
  EstimateStatusChanged,
  EstimateUpdated,
  type EventContract,
  estimateTotals,
  InvoiceCompleted,
  InvoiceCreated,
  InvoiceStatusChanged,
  InvoiceUpdated,
  lineTotalCents,
  type OrderActionsView,
  type OrderState,
  type OrderStatus,
  permission,
  type QboOutcome,
  type RefusalCode,
  refusalMessage,
  TOOLTIP_CODES,
  UI_ACTIONS,
} from '@decor/contracts';
import type { Static } from '@sinclair/typebox';
import { DETAIL_FIELDS, type EstimateDetails } from './details';
import type { EstimateLine } from './estimate';
import type { OrderRecord } from './view';

export type OrderStateData = Static<typeof OrderState>;

export type QboAction = QboOutcome;

export type Command =
  | {
      action: 'edit';
      /** The complete new details (already parsed and with the read-only names set), if sent. */
      details?: EstimateDetails;
      /** The new lines, if sent (already checked and priced by domain/lines.ts). */
      lines?: readonly EstimateLine[];
    }
  | { action: 'requestInvoice' | 'sendToQbo' | 'updateInQbo' | 'complete' | 'cancel' | 'invoiced' }
  | {
      action: 'qboSynced';
      qboAction: QboAction;
      qboId: string;
      syncToken: string;
      /** The order revision whose content QuickBooks now has (absent: assume the latest). */
      sourceRevision?: number;
    };

/** Stored fields a decision sets (the store adds revision + 1 and the outbox). */
export interface OrderChanges {
  status?: OrderStatus;
  hasBeenModified?: boolean;
  hasInvoice?: boolean;
  isInQbo?: boolean;
  qboId?: string | null;
  syncToken?: string | null;
  details?: EstimateDetails;
  lines?: EstimateLine[];
  editedRevision?: number;
  subtotalCents?: number;
  truckingCents?: number;
  taxCents?: number;
  totalCents?: number;
}

/** An event to publish: its contract and payload (the store wraps it in an envelope). */
export interface EventToPublish {
  contract: EventContract;
  payload: Record<string, unknown>;
}

export type Decision =
  | {
      ok: true;
      status: OrderStatus;
      /** Empty when nothing changes (a permitted probe, an edit that changes nothing, a repeat). */
      set: OrderChanges;
      events: EventToPublish[];
      /** The spec names of the fields an edit changed. */
      changed: string[];
    }
  | { ok: false; code: RefusalCode };

/** The order's state as its events carry it (spec names in `details`, money in cents). */
export function orderState(order: OrderRecord): OrderStateData {
  return {
    orderType: order.orderType,
    id: order.id,
    docNumber: order.docNumber,
    userId: order.userId,
    cartId: order.cartId,
    ...(order.orderType === 'invoice' && order.estimateId ? { estimateId: order.estimateId } : {}),
    status: order.status as OrderStateData['status'],
    hasBeenModified: order.hasBeenModified,
    ...(order.orderType === 'estimate' ? { hasInvoice: order.hasInvoice } : {}),
    isInQbo: order.isInQbo,
    qboId: order.qboId,
    customer: {
      email: order.customer.email,
      displayName: order.customer.displayName,
      ...(order.customer.ownCompany ? { companyName: order.customer.ownCompany } : {}),
    },
    details: { ...order.details },
    lines: order.lines.map(({ qboId, ...line }) => ({ ...line, ...(qboId ? { qboId } : {}) })),
    subtotalCents: order.subtotalCents,
    truckingCents: order.truckingCents,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    revision: order.revision,
  };
}

const sameLines = (a: readonly EstimateLine[], b: readonly EstimateLine[]) =>
  a.length === b.length &&
  a.every((line, i) => {
    const other = b[i] as EstimateLine;
    return (
      line.productId === other.productId &&
      line.name === other.name &&
      line.description === other.description &&
      line.qty === other.qty &&
      line.priceCents === other.priceCents &&
      (line.qboId ?? null) === (other.qboId ?? null)
    );
  });

/** The changes an edit makes: changed detail fields, new lines and totals (one `estimateTotals`). */
function editChanges(order: OrderRecord, command: Extract<Command, { action: 'edit' }>) {
  const set: OrderChanges = {};
  const changed: string[] = [];
  if (command.details) {
    const fields = DETAIL_FIELDS.filter(
      (field: EstimateDetailField) => (order.details[field] ?? null) !== (command.details?.[field] ?? null),
    );
    if (fields.length > 0) {
      set.details = { ...command.details };
      changed.push(...fields);
    }
  }
  if (command.lines && !sameLines(order.lines, command.lines)) {
    const lines = command.lines.map((line) => ({
      ...line,
      totalCents: lineTotalCents(line.priceCents, line.qty),
    }));
    const subtotal = lines.reduce((sum, line) => sum + line.totalCents, 0);
    Object.assign(set, { lines }, estimateTotals(subtotal, order.truckingCents));
    changed.push('CartProducts');
  }
  if (changed.length > 0) Object.assign(set, { hasBeenModified: true, editedRevision: order.revision + 1 });
  return { set, changed };
}

/** The fields a QuickBooks outcome sets (spec §4), before knowing whether anything differs. */
function qboChanges(
  order: OrderRecord,
  command: Extract<Command, { action: 'qboSynced' }>,
  to: OrderStatus,
): OrderChanges {
  const bookkeeping: OrderChanges = { qboId: command.qboId, syncToken: command.syncToken };
  const { qboAction } = command;
  // Estimates open when created or updated there (or found already up to date: `unchanged`, e.g.
  // after an edit of a field the document does not show); invoices also when sent from there.
  const opens =
    qboAction === 'created' ||
    qboAction === 'updated' ||
    qboAction === 'unchanged' ||
    (order.orderType === 'invoice' && qboAction === 'sent');
  if (!opens) return bookkeeping;
  return {
    ...bookkeeping,
    status: to,
    isInQbo: true,
    // Created, updated or unchanged there: QuickBooks now has this version, the modification is approved —
    // unless an edit came after the content that was written (it still waits for its update).
    ...(qboAction === 'sent' || (command.sourceRevision ?? order.editedRevision) < order.editedRevision
      ? {}
      : { hasBeenModified: false }),
  };
}

/** Only the fields whose value differs from the order's. */
function differing(order: OrderRecord, set: OrderChanges): OrderChanges {
  const out: OrderChanges = {};
  for (const [key, value] of Object.entries(set) as [keyof OrderChanges, unknown][]) {
    const current = (order as unknown as Record<string, unknown>)[key];
    if (key === 'details' || key === 'lines' || current !== value)
      (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

const CONTRACTS = {
  estimate: { updated: EstimateUpdated, statusChanged: EstimateStatusChanged },
  invoice: { updated: InvoiceUpdated, statusChanged: InvoiceStatusChanged },
} as const;

/**
 * The one decision: may `actor` do `command` to `order` today (YYYY-MM-DD, business time zone),
 * and if so the next status, the fields to set and the events to publish (each with the order's
 * whole new state at revision + 1). A refusal is a code (`refusalMessage` gives its sentence).
 *
 * Events: a status change publishes <Type>StatusChanged (and InvoiceCompleted beside it when staff
 * complete an invoice); any other change of the order's state (an edit, the QuickBooks update
 * clearing hasBeenModified) publishes <Type>Updated with the changed field names. QuickBooks
 * bookkeeping alone (a new SyncToken) is stored without an event: it is not part of the state.
 */
export function decide(order: OrderRecord, command: Command, actor: Actor, today: string): Decision {
  const answer = permission(order, command, actor, today);
  if ('refuse' in answer) return { ok: false, code: answer.refuse };
  const current = order.status as OrderStatus;
  let set: OrderChanges = {};
  let changed: string[] = [];
  if ('ignore' in answer) {
    // A terminal order: never reopened; QuickBooks' id and SyncToken are still recorded.
    if (command.action === 'qboSynced')
      set = differing(order, { qboId: command.qboId, syncToken: command.syncToken });
    return { ok: true, status: current, set, events: [], changed };
  }
  const to = answer.to;
  switch (command.action) {
    case 'edit':
      ({ set, changed } = editChanges(order, command));
      break;
    case 'qboSynced':
      set = differing(order, qboChanges(order, command, to));
      break;
    case 'complete':
      set = { status: to, hasBeenModified: false };
      break;
    case 'cancel':
      set = { status: to };
      break;
    case 'invoiced':
      set = differing(order, { status: to, hasInvoice: true });
      break;
    default:
      // requestInvoice, sendToQbo, updateInQbo: permitted; the work happens elsewhere.
      break;
  }
  const statusChanges = set.status !== undefined && set.status !== current;
  if (command.action === 'qboSynced') changed = STATE_KEYS.filter((key) => key in set);
  const stateChanges = statusChanges || changed.length > 0 || set.hasInvoice !== undefined;
  if (!stateChanges) {
    // Nothing but bookkeeping (a SyncToken) or nothing at all: no event, no status field.
    const { status: _s, ...rest } = set;
    return { ok: true, status: current, set: rest, events: [], changed: [] };
  }
  const after: OrderRecord = { ...order, ...(set as Partial<OrderRecord>), revision: order.revision + 1 };
  const state = orderState(after);
  const contracts = CONTRACTS[order.orderType];
  const events: EventToPublish[] = [];
  if (statusChanges) {
    events.push({ contract: contracts.statusChanged, payload: { order: state, from: current, actor } });
    if (command.action === 'complete')
      events.push({ contract: InvoiceCompleted, payload: { order: state, actor } });
  } else {
    events.push({ contract: contracts.updated, payload: { order: state, actor, changed } });
  }
  return { ok: true, status: statusChanges ? (set.status as OrderStatus) : current, set, events, changed };
}

/** A QuickBooks outcome's fields that are part of the order's state (the SyncToken is bookkeeping). */
const STATE_KEYS = ['hasBeenModified', 'isInQbo', 'qboId'] as const;

/** InvoiceCreated for a new invoice (its state at revision 0). */
export function invoiceCreatedEvent(invoice: OrderRecord, actor: Actor): EventToPublish {
  return { contract: InvoiceCreated, payload: { order: orderState(invoice), actor } };
}

/**
 * The UI's buttons for this caller, each from `decide` with the button's command: allowed, or not
 * with the spec §6 tooltip when there is one (a button the caller never has, like a customer's
 * 'Complete Order', is disabled without a reason).
 */
export function availableActions(order: OrderRecord, actor: Actor, today: string): OrderActionsView {
  const entries = UI_ACTIONS.map((action) => {
    const decision = decide(order, { action }, actor, today);
    if (decision.ok) return [action, { allowed: true }];
    const reason = TOOLTIP_CODES.has(decision.code) ? refusalMessage(decision.code, order.status) : undefined;
    return [action, reason ? { allowed: false, reason } : { allowed: false }];
  });
  return Object.fromEntries(entries) as OrderActionsView;
}
