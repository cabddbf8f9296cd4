/**
 * Spec §4 and §6: the lifecycle of estimates and invoices, as data. One table per document type
 * (state × action → next state, or the refusal), and ONE `decide` that every caller uses: the
 * routes (PUT, POST /invoice), the event handlers (QuickBooks outcomes, the invoice's estimate
 * closing) and the `actions` the API gives the UI (enabled or disabled, with the spec's tooltip).
 * Pure: no I/O, no HTTP statuses (the routes map refusal codes to those, `REFUSAL_HTTP_STATUS`).
 */
import {
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
  type OrderActor,
  type OrderState,
  type OrderType,
} from '@decor/contracts';
import type { Static } from '@sinclair/typebox';
import { DETAIL_FIELDS, type EstimateDetails } from './details';
import type { EstimateLine, OrderStatus } from './estimate';
import { daysUntil, EDIT_CUTOFF_DAYS } from './modification';
import type { OrderRecord } from './view';

export type Actor = Static<typeof OrderActor>;
export type OrderStateData = Static<typeof OrderState>;

/** What can be asked of an order. The first six are the UI's buttons; the last two come from events. */
export const ACTIONS = [
  'edit',
  'requestInvoice',
  'sendToQbo',
  'updateInQbo',
  'complete',
  'cancel',
  /** accounting-sync reported a QuickBooks write (QboRecordSynced). */
  'qboSynced',
  /** An invoice was created from this estimate (it closes). */
  'invoiced',
] as const;
export type Action = (typeof ACTIONS)[number];

/** The actions the API reports for the UI (`actions` of an order view), by these names. */
export const UI_ACTIONS = [
  'edit',
  'requestInvoice',
  'sendToQbo',
  'updateInQbo',
  'complete',
  'cancel',
] as const;
export type UiAction = (typeof UI_ACTIONS)[number];

/** Staff-only buttons: customers get them disabled without a reason (checked before the table). */
export const STAFF_ONLY: ReadonlySet<Action> = new Set(['sendToQbo', 'updateInQbo', 'complete']);
/** Only the system (a QuickBooks outcome) may ask these. */
export const SYSTEM_ONLY: ReadonlySet<Action> = new Set(['qboSynced']);

export const REFUSAL_CODES = [
  'terminal',
  'linkedToInvoice',
  'notApproved',
  'modified',
  'alreadyInQbo',
  'hasInvoice',
  'openInvoice',
  'notOpen',
  'tooLate',
  'staffOnly',
  'systemOnly',
  'notInQbo',
  'notModified',
  'notInvoice',
  'notEstimate',
  'linesStaffOnly',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/**
 * Each refusal's sentence, in one place. Spec §6's tooltips are shown to users (`reason`); the
 * codes without a spec sentence are buttons the UI does not offer at all (no tooltip), and their
 * text only answers an API call that asks anyway.
 */
export function refusalMessage(code: RefusalCode, status: string): string {
  return REFUSAL_MESSAGES[code](status);
}

const REFUSAL_MESSAGES: Record<RefusalCode, (status: string) => string> = {
  terminal: (status) => `This order is ${status}`,
  linkedToInvoice: () => 'This estimate is linked to an existing invoice.',
  notApproved: () => 'You may request an invoice once your estimate has been approved.',
  modified: () =>
    'This order has been modified. You can request an invoice after your update has been approved.',
  alreadyInQbo: () => 'This order is already in Quick Books.',
  hasInvoice: () => 'An invoice has already been created for this order.',
  openInvoice: (status) => `The status of this order is ${status}, and cannot be cancelled from the site.`,
  notOpen: () => 'This invoice must be opened before it can be confirmed',
  tooLate: () =>
    'This event will occur in less than 3 days. If you need to change your order please contact us.',
  staffOnly: () => 'Only staff can do this',
  systemOnly: () => 'Only a QuickBooks outcome can do this',
  notInQbo: () => 'This order is not in Quick Books yet',
  notModified: () => 'This order has no changes to update in Quick Books',
  notInvoice: () => 'Only an invoice can be completed',
  notEstimate: () => 'Only an estimate can be invoiced',
  linesStaffOnly: () => 'Only staff can change the lines of an order',
};

/** The spec §6 tooltips: codes whose sentence a user sees on a disabled button. */
export const TOOLTIP_CODES: ReadonlySet<RefusalCode> = new Set([
  'terminal',
  'linkedToInvoice',
  'notApproved',
  'modified',
  'alreadyInQbo',
  'hasInvoice',
  'openInvoice',
  'notOpen',
  'tooLate',
]);

/** Conditions a cell may add, each with the refusal when it does not hold. */
export const GUARDS = {
  /** Customers: not within 3 days of the event (spec §9); staff always may. */
  customerInTime: 'tooLate',
  /** Customers may not cancel an Open invoice (staff may). */
  staffWhenOpen: 'openInvoice',
  notInQbo: 'alreadyInQbo',
  inQbo: 'notInQbo',
  isModified: 'notModified',
  unmodified: 'modified',
  noInvoice: 'hasInvoice',
} as const satisfies Record<string, RefusalCode>;
export type Guard = keyof typeof GUARDS;

/**
 * One cell: the next state when allowed (after its guards, in order), a refusal in every case, or
 * "ignore" (a system outcome that changes nothing on a terminal order but its QuickBooks bookkeeping).
 */
export type Cell =
  | { to: OrderStatus; guards?: readonly Guard[] }
  | { refuse: RefusalCode }
  | { ignore: true };
export type Table = Readonly<Record<OrderStatus, Readonly<Record<Action, Cell>>>>;

const TERMINAL = { refuse: 'terminal' } as const;
const IGNORE = { ignore: true } as const;

/**
 * Estimates (spec §4): Pending → Open once in QuickBooks → Closed once invoiced; cancel → Voided.
 * sendToQbo, updateInQbo and requestInvoice change nothing here themselves: accounting-sync does the
 * QuickBooks write (its outcome comes back as qboSynced) and the invoice's creation closes the
 * estimate (invoiced); their cells say who may ask. A Closed estimate's edit and cancel say it is
 * linked to its invoice, its invoice request that the invoice exists (spec §6's sentences).
 */
export const ESTIMATE_TABLE: Table = {
  Pending: {
    edit: { to: 'Pending', guards: ['customerInTime'] },
    requestInvoice: { refuse: 'notApproved' },
    sendToQbo: { to: 'Pending', guards: ['notInQbo'] },
    updateInQbo: { to: 'Pending', guards: ['inQbo', 'isModified'] },
    complete: { refuse: 'notInvoice' },
    cancel: { to: 'Voided', guards: ['customerInTime'] },
    qboSynced: { to: 'Open' },
    invoiced: { to: 'Closed' },
  },
  Open: {
    edit: { to: 'Open', guards: ['customerInTime'] },
    requestInvoice: { to: 'Open', guards: ['noInvoice', 'unmodified'] },
    sendToQbo: { to: 'Open', guards: ['notInQbo'] },
    updateInQbo: { to: 'Open', guards: ['inQbo', 'isModified'] },
    complete: { refuse: 'notInvoice' },
    cancel: { to: 'Voided', guards: ['customerInTime'] },
    qboSynced: { to: 'Open' },
    invoiced: { to: 'Closed' },
  },
  Closed: {
    edit: { refuse: 'linkedToInvoice' },
    requestInvoice: { refuse: 'hasInvoice' },
    sendToQbo: TERMINAL,
    updateInQbo: TERMINAL,
    complete: { refuse: 'notInvoice' },
    cancel: { refuse: 'linkedToInvoice' },
    qboSynced: IGNORE,
    invoiced: IGNORE,
  },
  Completed: {
    edit: TERMINAL,
    requestInvoice: TERMINAL,
    sendToQbo: TERMINAL,
    updateInQbo: TERMINAL,
    complete: { refuse: 'notInvoice' },
    cancel: TERMINAL,
    qboSynced: IGNORE,
    invoiced: IGNORE,
  },
  Voided: {
    edit: TERMINAL,
    requestInvoice: TERMINAL,
    sendToQbo: TERMINAL,
    updateInQbo: TERMINAL,
    complete: { refuse: 'notInvoice' },
    cancel: TERMINAL,
    qboSynced: IGNORE,
    invoiced: IGNORE,
  },
};

/**
 * Invoices (spec §4): created Pending from an estimate; Open once created, updated or sent in
 * QuickBooks; staff complete an Open one; cancel → Voided (customers: not an Open one). An invoice
 * is never Closed; that row is there so every status has a row, and refuses like a terminal state.
 */
export const INVOICE_TABLE: Table = {
  Pending: {
    edit: { to: 'Pending', guards: ['customerInTime'] },
    requestInvoice: { refuse: 'notEstimate' },
    sendToQbo: { to: 'Pending', guards: ['notInQbo'] },
    updateInQbo: { to: 'Pending', guards: ['inQbo', 'isModified'] },
    complete: { refuse: 'notOpen' },
    cancel: { to: 'Voided', guards: ['customerInTime'] },
    qboSynced: { to: 'Open' },
    invoiced: { refuse: 'notEstimate' },
  },
  Open: {
    edit: { to: 'Open', guards: ['customerInTime'] },
    requestInvoice: { refuse: 'notEstimate' },
    sendToQbo: { to: 'Open', guards: ['notInQbo'] },
    updateInQbo: { to: 'Open', guards: ['inQbo', 'isModified'] },
    complete: { to: 'Completed' },
    cancel: { to: 'Voided', guards: ['staffWhenOpen'] },
    qboSynced: { to: 'Open' },
    invoiced: { refuse: 'notEstimate' },
  },
  Closed: {
    edit: TERMINAL,
    requestInvoice: { refuse: 'notEstimate' },
    sendToQbo: TERMINAL,
    updateInQbo: TERMINAL,
    complete: TERMINAL,
    cancel: TERMINAL,
    qboSynced: IGNORE,
    invoiced: { refuse: 'notEstimate' },
  },
  Completed: {
    edit: TERMINAL,
    requestInvoice: { refuse: 'notEstimate' },
    sendToQbo: TERMINAL,
    updateInQbo: TERMINAL,
    complete: TERMINAL,
    cancel: TERMINAL,
    qboSynced: IGNORE,
    invoiced: { refuse: 'notEstimate' },
  },
  Voided: {
    edit: TERMINAL,
    requestInvoice: { refuse: 'notEstimate' },
    sendToQbo: TERMINAL,
    updateInQbo: TERMINAL,
    complete: TERMINAL,
    cancel: TERMINAL,
    qboSynced: IGNORE,
    invoiced: { refuse: 'notEstimate' },
  },
};

export const TABLES: Readonly<Record<OrderType, Table>> = {
  estimate: ESTIMATE_TABLE,
  invoice: INVOICE_TABLE,
};

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['Closed', 'Completed', 'Voided']);

export type QboAction = 'created' | 'updated' | 'sent' | 'voided' | 'rejected' | 'deactivated';

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
    details: { ...order.details } as Record<string, string>,
    lines: order.lines.map(({ qboId, ...line }) => ({ ...line, ...(qboId ? { qboId } : {}) })),
    subtotalCents: order.subtotalCents,
    truckingCents: order.truckingCents,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    revision: order.revision,
  };
}

function guardHolds(guard: Guard, order: OrderRecord, actor: Actor, today: string): boolean {
  switch (guard) {
    case 'customerInTime':
      return actor.role !== 'customer' || daysUntil(order.details.eventDate ?? '', today) >= EDIT_CUTOFF_DAYS;
    case 'staffWhenOpen':
      return actor.role !== 'customer';
    case 'notInQbo':
      return !order.isInQbo;
    case 'inQbo':
      return order.isInQbo;
    case 'isModified':
      return order.hasBeenModified;
    case 'unmodified':
      return !order.hasBeenModified;
    case 'noInvoice':
      return !order.hasInvoice;
  }
}

/** Who may ask, before the table: staff-only buttons, system-only outcomes (line rules: domain/lines.ts). */
function roleRefusal(action: Action, actor: Actor): RefusalCode | null {
  if (SYSTEM_ONLY.has(action)) return actor.role === 'system' ? null : 'systemOnly';
  if (STAFF_ONLY.has(action) && actor.role !== 'staff' && actor.role !== 'system') return 'staffOnly';
  return null;
}

/** The table's answer for this order, action and actor: the next status or the refusal (or ignore). */
export function permission(
  order: OrderRecord,
  command: Command,
  actor: Actor,
  today: string,
): { to: OrderStatus } | { refuse: RefusalCode } | { ignore: true } {
  const byRole = roleRefusal(command.action, actor);
  if (byRole) return { refuse: byRole };
  const cell = TABLES[order.orderType][order.status as OrderStatus]?.[command.action];
  if (!cell) return { refuse: 'terminal' };
  if ('refuse' in cell || 'ignore' in cell) return cell;
  for (const guard of cell.guards ?? []) {
    if (!guardHolds(guard, order, actor, today)) return { refuse: GUARDS[guard] };
  }
  return { to: cell.to };
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
  // Estimates open when created or updated there; invoices also when sent from there.
  const opens =
    qboAction === 'created' ||
    qboAction === 'updated' ||
    (order.orderType === 'invoice' && qboAction === 'sent');
  if (!opens) return bookkeeping;
  return {
    ...bookkeeping,
    status: to,
    isInQbo: true,
    // Created or updated there: QuickBooks now has this version, the modification is approved —
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

export interface ActionAvailability {
  allowed: boolean;
  reason?: string;
}

/**
 * The UI's buttons for this caller, each from `decide` with the button's command: allowed, or not
 * with the spec §6 tooltip when there is one (a button the caller never has, like a customer's
 * 'Complete Order', is disabled without a reason).
 */
export function availableActions(
  order: OrderRecord,
  actor: Actor,
  today: string,
): Record<UiAction, ActionAvailability> {
  const entries = UI_ACTIONS.map((action) => {
    const decision = decide(order, { action }, actor, today);
    if (decision.ok) return [action, { allowed: true }];
    const reason = TOOLTIP_CODES.has(decision.code) ? refusalMessage(decision.code, order.status) : undefined;
    return [action, reason ? { allowed: false, reason } : { allowed: false }];
  });
  return Object.fromEntries(entries) as Record<UiAction, ActionAvailability>;
}
