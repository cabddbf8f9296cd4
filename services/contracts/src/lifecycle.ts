/**
 * Spec §4 and §6: the lifecycle of estimates and invoices, as data, for EVERY caller. One table per
 * document type (state × action → next state, or the refusal), the refusal codes with the spec's
 * sentences, and `permission`, the table's answer for an order's facts. The order service builds its
 * `decide` (fields and events) on it; accounting-sync answers its QuickBooks write calls with it from
 * its projection of the order events; the frontends take the statuses and texts from it
 * (`@decor/contracts/rules`). Pure and browser-safe: no I/O, no event schemas.
 */
import type { Static } from '@sinclair/typebox';
import { daysUntil } from './calendar-day';
import type { OrderActor, OrderType } from './order-events';

/** Spec §4: order statuses; Closed, Completed and Voided are terminal. */
export const ORDER_STATUSES = ['Pending', 'Open', 'Closed', 'Completed', 'Voided'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Spec §4: a modified order reads 'Pending Approval' to its customer, 'Pending Update' to staff. */
export const MODIFIED_STATUS_TEXT = { customer: 'Pending Approval', staff: 'Pending Update' } as const;

/** Spec §4: Closed, Completed and Voided are terminal (nothing but QuickBooks bookkeeping changes them). */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set<OrderStatus>(['Closed', 'Completed', 'Voided']);

/** The statuses a PUT may set by itself: cancel (both), complete (invoices). */
export const STATUS_CHANGES = { estimate: ['Voided'], invoice: ['Voided', 'Completed'] } as const;
export type StatusChange = (typeof STATUS_CHANGES)['invoice'][number];

/**
 * The status as each side reads it (spec §4 "Modification"), for the order screens and the e-mails
 * alike: a modified order still in play is 'Pending Approval' to its customer and 'Pending Update' to
 * staff. A terminal order reads its status.
 */
export function orderStatusText(
  order: { status: string; hasBeenModified: boolean; isInQbo: boolean },
  reader: 'customer' | 'staff',
): string {
  if (!order.hasBeenModified || TERMINAL_STATUSES.has(order.status)) return order.status;
  return reader === 'customer' ? MODIFIED_STATUS_TEXT.customer : MODIFIED_STATUS_TEXT.staff;
}

/** Spec §9: customers cannot edit within 3 days of the event. */
export const EDIT_CUTOFF_DAYS = 3;

export type Actor = Static<typeof OrderActor>;

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

/**
 * What the table needs to know of an order: the order service's stored order and accounting-sync's
 * projection of the order events both have these.
 */
export interface LifecycleFacts {
  orderType: OrderType;
  status: string;
  isInQbo: boolean;
  hasBeenModified: boolean;
  /** Estimates: an invoice was created from it. */
  hasInvoice?: boolean;
  details: { eventDate?: string | null };
}

/** What is asked (an edit's lines are judged by the order service's line rules, not here). */
export interface LifecycleCommand {
  action: Action;
}

export type LifecycleAnswer = { to: OrderStatus } | { refuse: RefusalCode } | { ignore: true };

/** HTTP only at the edge, the same in every service: who-may-ask refusals are 403, every rule 409. */
const FORBIDDEN_CODES: ReadonlySet<RefusalCode> = new Set(['staffOnly', 'systemOnly']);

export function refusalHttpStatus(code: RefusalCode): 403 | 409 {
  return FORBIDDEN_CODES.has(code) ? 403 : 409;
}

function guardHolds(guard: Guard, order: LifecycleFacts, actor: Actor, today: string): boolean {
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

/** Who may ask, before the table: staff-only buttons, system-only outcomes. */
function roleRefusal(action: Action, actor: Actor): RefusalCode | null {
  if (SYSTEM_ONLY.has(action)) return actor.role === 'system' ? null : 'systemOnly';
  if (STAFF_ONLY.has(action) && actor.role !== 'staff' && actor.role !== 'system') return 'staffOnly';
  return null;
}

/** The table's answer for this order, action and actor: the next status or the refusal (or ignore). */
export function permission(
  order: LifecycleFacts,
  command: LifecycleCommand,
  actor: Actor,
  today: string,
): LifecycleAnswer {
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
