/**
 * The two transition tables (contracts' lifecycle.ts), cell by cell, and the order service's one
 * `decide` behind routes, handlers and the UI.
 */

import {
  ACTIONS,
  type Action,
  type Actor,
  type Cell,
  ESTIMATE_TABLE,
  GUARDS,
  type Guard,
  INVOICE_TABLE,
  ORDER_STATUSES,
  type OrderStatus,
  refusalMessage,
  type Table,
} from '@decor/contracts';
import { availableActions, type Command, decide } from '../src/domain/decide';
import type { OrderRecord } from '../src/domain/view';

const TODAY = '2030-06-01';
const staff: Actor = { role: 'staff', userId: 'staff-1' };
const customer: Actor = { role: 'customer', userId: 'user-1' };
const system: Actor = { role: 'system', userId: null };

function order(
  orderType: 'estimate' | 'invoice',
  status: string,
  extra: Partial<OrderRecord> = {},
): OrderRecord {
  return {
    orderType,
    id: 'o1',
    docNumber: '1001',
    userId: 'user-1',
    cartId: 'cart-1',
    estimateId: orderType === 'invoice' ? 'e1' : null,
    status,
    hasBeenModified: false,
    hasInvoice: false,
    isInQbo: status !== 'Pending',
    qboId: status !== 'Pending' ? '77' : null,
    syncToken: status !== 'Pending' ? '0' : null,
    details: { customerName: 'Evergreen', groupName: 'Gala', eventDate: '2030-07-01', location: 'Hall' },
    lines: [
      {
        productId: 'SKU-1',
        name: 'Chair',
        description: '',
        qty: 2,
        priceCents: 1250,
        totalCents: 2500,
        qboId: null,
      },
    ],
    subtotalCents: 2500,
    truckingCents: 35_000,
    taxCents: 3038,
    totalCents: 40_538,
    customer: { email: 'pat@example.com', displayName: 'Pat', ownCompany: 'Evergreen', qboId: null },
    subRental: null,
    createdAt: new Date('2030-05-01T00:00:00Z'),
    revision: 3,
    editedRevision: 0,
    ...extra,
  };
}

/** A cell written as text: 'Pending [customerInTime]', '✗ notApproved' or 'ignore'. */
function text(cell: Cell): string {
  if ('refuse' in cell) return `✗ ${cell.refuse}`;
  if ('ignore' in cell) return 'ignore';
  return cell.guards?.length ? `${cell.to} [${cell.guards.join(', ')}]` : cell.to;
}

type Expected = Record<OrderStatus, Record<Action, string>>;

const TERMINAL_ESTIMATE = {
  edit: '✗ terminal',
  requestInvoice: '✗ terminal',
  sendToQbo: '✗ terminal',
  updateInQbo: '✗ terminal',
  complete: '✗ notInvoice',
  cancel: '✗ terminal',
  qboSynced: 'ignore',
  invoiced: 'ignore',
};

const EXPECTED_ESTIMATE: Expected = {
  Pending: {
    edit: 'Pending [customerInTime]',
    requestInvoice: '✗ notApproved',
    sendToQbo: 'Pending [notInQbo]',
    updateInQbo: 'Pending [inQbo, isModified]',
    complete: '✗ notInvoice',
    cancel: 'Voided [customerInTime]',
    qboSynced: 'Open',
    invoiced: 'Closed',
  },
  Open: {
    edit: 'Open [customerInTime]',
    requestInvoice: 'Open [noInvoice, unmodified]',
    sendToQbo: 'Open [notInQbo]',
    updateInQbo: 'Open [inQbo, isModified]',
    complete: '✗ notInvoice',
    cancel: 'Voided [customerInTime]',
    qboSynced: 'Open',
    invoiced: 'Closed',
  },
  Closed: {
    ...TERMINAL_ESTIMATE,
    edit: '✗ linkedToInvoice',
    requestInvoice: '✗ hasInvoice',
    cancel: '✗ linkedToInvoice',
  },
  Completed: TERMINAL_ESTIMATE,
  Voided: TERMINAL_ESTIMATE,
};

const TERMINAL_INVOICE = {
  edit: '✗ terminal',
  requestInvoice: '✗ notEstimate',
  sendToQbo: '✗ terminal',
  updateInQbo: '✗ terminal',
  complete: '✗ terminal',
  cancel: '✗ terminal',
  qboSynced: 'ignore',
  invoiced: '✗ notEstimate',
};

const EXPECTED_INVOICE: Expected = {
  Pending: {
    edit: 'Pending [customerInTime]',
    requestInvoice: '✗ notEstimate',
    sendToQbo: 'Pending [notInQbo]',
    updateInQbo: 'Pending [inQbo, isModified]',
    complete: '✗ notOpen',
    cancel: 'Voided [customerInTime]',
    qboSynced: 'Open',
    invoiced: '✗ notEstimate',
  },
  Open: {
    edit: 'Open [customerInTime]',
    requestInvoice: '✗ notEstimate',
    sendToQbo: 'Open [notInQbo]',
    updateInQbo: 'Open [inQbo, isModified]',
    complete: 'Completed',
    cancel: 'Voided [staffWhenOpen]',
    qboSynced: 'Open',
    invoiced: '✗ notEstimate',
  },
  Closed: TERMINAL_INVOICE,
  Completed: TERMINAL_INVOICE,
  Voided: TERMINAL_INVOICE,
};

/** An order on which every guard of the cell holds. */
function favourable(orderType: 'estimate' | 'invoice', status: OrderStatus, guards: readonly Guard[]) {
  const extra: Partial<OrderRecord> = {};
  if (guards.includes('notInQbo')) Object.assign(extra, { isInQbo: false, qboId: null });
  if (guards.includes('inQbo')) Object.assign(extra, { isInQbo: true, qboId: '77' });
  if (guards.includes('isModified')) extra.hasBeenModified = true;
  return order(orderType, status, extra);
}

/** The order on which `guard` fails (and the actor for whom it does). */
function failing(
  orderType: 'estimate' | 'invoice',
  status: OrderStatus,
  guards: readonly Guard[],
  guard: Guard,
) {
  const base = favourable(orderType, status, guards);
  switch (guard) {
    case 'customerInTime':
      return { o: { ...base, details: { ...base.details, eventDate: '2030-06-03' } }, actor: customer };
    case 'staffWhenOpen':
      return { o: base, actor: customer };
    case 'notInQbo':
      return { o: { ...base, isInQbo: true }, actor: staff };
    case 'inQbo':
      return { o: { ...base, isInQbo: false }, actor: staff };
    case 'isModified':
      return { o: { ...base, hasBeenModified: false }, actor: staff };
    case 'unmodified':
      return { o: { ...base, hasBeenModified: true }, actor: staff };
    case 'noInvoice':
      return { o: { ...base, hasInvoice: true }, actor: staff };
  }
}

function commandFor(action: Action): Command {
  if (action === 'qboSynced') return { action, qboAction: 'created', qboId: '77', syncToken: '1' };
  if (action === 'edit') return { action, details: { ...order('estimate', 'Pending').details, room: 'B' } };
  return { action } as Command;
}

const actorFor = (action: Action): Actor => (action === 'qboSynced' ? system : staff);

describe.each([
  ['estimate', ESTIMATE_TABLE, EXPECTED_ESTIMATE],
  ['invoice', INVOICE_TABLE, EXPECTED_INVOICE],
] as const)('the %s table', (orderType, table: Table, expected: Expected) => {
  const cells = ORDER_STATUSES.flatMap((status) => ACTIONS.map((action) => [status, action] as const));

  it('has a cell for every state and action, and no other', () => {
    expect(Object.keys(table).sort()).toEqual([...ORDER_STATUSES].sort());
    for (const status of ORDER_STATUSES)
      expect(Object.keys(table[status]).sort()).toEqual([...ACTIONS].sort());
  });

  it.each(cells)('%s × %s', (status, action) => {
    const cell = table[status][action];
    expect(text(cell)).toBe(expected[status][action]);

    const decision = decide(
      'to' in cell ? favourable(orderType, status, cell.guards ?? []) : order(orderType, status),
      commandFor(action),
      actorFor(action),
      TODAY,
    );
    if ('refuse' in cell) {
      expect(decision).toEqual({ ok: false, code: cell.refuse });
      return;
    }
    expect(decision.ok).toBe(true);
    if (!decision.ok) return;
    if ('ignore' in cell) {
      expect(decision.status).toBe(status);
      expect(decision.events).toEqual([]);
      expect(decision.set.status).toBeUndefined();
      return;
    }
    expect(decision.status).toBe(cell.to);
    // Every guard of the cell, failing alone, refuses with its code.
    for (const guard of cell.guards ?? []) {
      const { o, actor } = failing(orderType, status, cell.guards ?? [], guard);
      expect(decide(o, commandFor(action), actor, TODAY)).toEqual({ ok: false, code: GUARDS[guard] });
    }
  });
});

describe('who may ask', () => {
  it.each(['sendToQbo', 'updateInQbo', 'complete'] as const)('%s is staff-only', (action) => {
    const o = order('invoice', 'Open', { isInQbo: false, hasBeenModified: true });
    expect(decide(o, { action }, customer, TODAY)).toEqual({ ok: false, code: 'staffOnly' });
  });

  it('lets only the system report QuickBooks outcomes', () => {
    const command = commandFor('qboSynced');
    expect(decide(order('estimate', 'Pending'), command, staff, TODAY)).toEqual({
      ok: false,
      code: 'systemOnly',
    });
    expect(decide(order('estimate', 'Pending'), command, customer, TODAY)).toEqual({
      ok: false,
      code: 'systemOnly',
    });
  });

  it('takes a line edit like any edit: customers too, within the 3-day rule (adding products: lines.ts)', () => {
    const lines = [
      {
        productId: 'SKU-1',
        name: 'Chair',
        description: '',
        qty: 3,
        priceCents: 1250,
        totalCents: 0,
        qboId: null,
      },
    ];
    const edit = { action: 'edit', lines } as const;
    expect(decide(order('estimate', 'Pending'), edit, customer, TODAY)).toMatchObject({
      ok: true,
      changed: ['CartProducts'],
      set: { hasBeenModified: true },
    });
    const soon = order('estimate', 'Pending', {
      details: { customerName: 'Evergreen', groupName: 'Gala', eventDate: '2030-06-03', location: 'Hall' },
    });
    expect(decide(soon, edit, customer, TODAY)).toEqual({ ok: false, code: 'tooLate' });
    expect(decide(soon, edit, staff, TODAY).ok).toBe(true);
  });
});

describe('the 3-day rule at its boundary (customers only)', () => {
  it.each([
    ['2030-06-04', true],
    ['2030-06-03', false],
    ['2030-06-01', false],
    ['2030-05-01', false],
  ])('event on %s, today %s: edit and cancel allowed = %s', (eventDate, allowed) => {
    const o = order('estimate', 'Open', { details: { ...order('estimate', 'Open').details, eventDate } });
    for (const action of ['edit', 'cancel'] as const) {
      expect(decide(o, { action }, customer, TODAY)).toEqual(
        allowed ? expect.objectContaining({ ok: true }) : { ok: false, code: 'tooLate' },
      );
      expect(decide(o, { action }, staff, TODAY).ok).toBe(true);
    }
  });
});

describe('effects and events', () => {
  it('an edit sets the details, hasBeenModified and publishes EstimateUpdated with the changed fields', () => {
    const o = order('estimate', 'Open');
    const details = { ...o.details, room: 'B', location: 'Garden' };
    const d = decide(o, { action: 'edit', details }, customer, TODAY);
    if (!d.ok) throw new Error('refused');
    expect(d.set).toEqual({ details, hasBeenModified: true, editedRevision: 4 });
    expect(d.changed).toEqual(['location', 'room']);
    expect(d.events.map((e) => e.contract.type)).toEqual(['EstimateUpdated']);
    expect(d.events[0]?.payload).toMatchObject({
      actor: customer,
      changed: ['location', 'room'],
      order: { id: 'o1', status: 'Open', hasBeenModified: true, revision: 4, details: { room: 'B' } },
    });
  });

  it('an edit that changes nothing writes nothing', () => {
    const o = order('invoice', 'Pending');
    expect(decide(o, { action: 'edit', details: { ...o.details } }, customer, TODAY)).toEqual({
      ok: true,
      status: 'Pending',
      set: {},
      events: [],
      changed: [],
    });
  });

  it('staff lines recompute the totals with estimateTotals and keep the trucking', () => {
    const o = order('invoice', 'Open');
    const lines = [
      {
        productId: 'SKU-1',
        name: 'Chair',
        description: '',
        qty: 4,
        priceCents: 1250,
        totalCents: 0,
        qboId: null,
      },
      {
        productId: 'LAB',
        name: 'Labor',
        description: 'Crew',
        qty: 1,
        priceCents: 10_000,
        totalCents: 0,
        qboId: '9',
      },
    ];
    const d = decide(o, { action: 'edit', lines }, staff, TODAY);
    if (!d.ok) throw new Error('refused');
    // subtotal 5000 + 10000 = 15000; tax round((15000 + 35000) × 0.081) = 4050
    expect(d.set).toMatchObject({
      subtotalCents: 15_000,
      truckingCents: 35_000,
      taxCents: 4050,
      totalCents: 54_050,
    });
    expect(d.set.lines?.map((l) => l.totalCents)).toEqual([5000, 10_000]);
    expect(d.changed).toEqual(['CartProducts']);
    expect(d.events.map((e) => e.contract.type)).toEqual(['InvoiceUpdated']);
  });

  it('a QuickBooks creation opens a Pending estimate: isInQbo, unmodified, EstimateStatusChanged', () => {
    const o = order('estimate', 'Pending', { hasBeenModified: true });
    const d = decide(
      o,
      { action: 'qboSynced', qboAction: 'created', qboId: '145', syncToken: '0' },
      system,
      TODAY,
    );
    if (!d.ok) throw new Error('refused');
    expect(d.set).toEqual({
      status: 'Open',
      isInQbo: true,
      hasBeenModified: false,
      qboId: '145',
      syncToken: '0',
    });
    expect(d.events.map((e) => e.contract.type)).toEqual(['EstimateStatusChanged']);
    expect(d.events[0]?.payload).toMatchObject({ from: 'Pending', actor: system, order: { status: 'Open' } });
  });

  it('a QuickBooks update clears hasBeenModified of an Open order (InvoiceUpdated); a SyncToken alone publishes nothing', () => {
    const o = order('invoice', 'Open', { hasBeenModified: true });
    const d = decide(
      o,
      { action: 'qboSynced', qboAction: 'updated', qboId: '77', syncToken: '4' },
      system,
      TODAY,
    );
    if (!d.ok) throw new Error('refused');
    expect(d.set).toEqual({ hasBeenModified: false, syncToken: '4' });
    expect(d.events.map((e) => e.contract.type)).toEqual(['InvoiceUpdated']);
    expect(d.events[0]?.payload).toMatchObject({ changed: ['hasBeenModified'] });

    const again = decide(
      { ...o, hasBeenModified: false },
      { action: 'qboSynced', qboAction: 'sent', qboId: '77', syncToken: '5' },
      system,
      TODAY,
    );
    expect(again).toEqual({ ok: true, status: 'Open', set: { syncToken: '5' }, events: [], changed: [] });
  });

  it('an edit newer than the content QuickBooks got stays modified; an edit records its revision', () => {
    const edited = decide(
      order('estimate', 'Open'),
      { action: 'edit', details: { ...order('estimate', 'Open').details, room: 'B' } },
      customer,
      TODAY,
    );
    if (!edited.ok) throw new Error('refused');
    expect(edited.set).toMatchObject({ hasBeenModified: true, editedRevision: 4 });

    const o = order('estimate', 'Open', { hasBeenModified: true, revision: 6, editedRevision: 6 });
    const stale = decide(
      o,
      { action: 'qboSynced', qboAction: 'updated', qboId: '77', syncToken: '4', sourceRevision: 5 },
      system,
      TODAY,
    );
    if (!stale.ok) throw new Error('refused');
    expect(stale.set).toEqual({ syncToken: '4' });
    const current = decide(
      o,
      { action: 'qboSynced', qboAction: 'updated', qboId: '77', syncToken: '4', sourceRevision: 6 },
      system,
      TODAY,
    );
    if (!current.ok) throw new Error('refused');
    expect(current.set).toEqual({ hasBeenModified: false, syncToken: '4' });
  });

  it('QuickBooks found already up to date (an edit of a field its document does not show) clears the flag too', () => {
    const o = order('estimate', 'Open', { hasBeenModified: true, revision: 6, editedRevision: 6 });
    const unchanged = decide(
      o,
      { action: 'qboSynced', qboAction: 'unchanged', qboId: '77', syncToken: '0', sourceRevision: 6 },
      system,
      TODAY,
    );
    if (!unchanged.ok) throw new Error('refused');
    expect(unchanged.set).toEqual({ hasBeenModified: false });
    expect(unchanged.events.map((e) => e.contract.type)).toEqual(['EstimateUpdated']);
    expect(unchanged.changed).toEqual(['hasBeenModified']);
    // …but not when an edit came after the revision that was checked.
    const stale = decide(
      o,
      { action: 'qboSynced', qboAction: 'unchanged', qboId: '77', syncToken: '0', sourceRevision: 5 },
      system,
      TODAY,
    );
    expect(stale).toMatchObject({ ok: true, set: {}, events: [] });
  });

  it('a sent invoice opens (modification kept); a sent estimate only records the SyncToken', () => {
    const inv = order('invoice', 'Pending', { isInQbo: true, qboId: '88', hasBeenModified: true });
    const d = decide(
      inv,
      { action: 'qboSynced', qboAction: 'sent', qboId: '88', syncToken: '2' },
      system,
      TODAY,
    );
    expect(d).toMatchObject({ ok: true, status: 'Open', set: { status: 'Open', syncToken: '2' } });
    if (d.ok) expect(d.set.hasBeenModified).toBeUndefined();
    const est = order('estimate', 'Open', { qboId: '12' });
    const e = decide(
      est,
      { action: 'qboSynced', qboAction: 'sent', qboId: '12', syncToken: '2' },
      system,
      TODAY,
    );
    expect(e).toEqual({ ok: true, status: 'Open', set: { syncToken: '2' }, events: [], changed: [] });
  });

  it('a terminal order is never reopened; its QuickBooks bookkeeping is recorded', () => {
    const o = order('estimate', 'Voided', { syncToken: '3' });
    const d = decide(
      o,
      { action: 'qboSynced', qboAction: 'rejected', qboId: '77', syncToken: '4' },
      system,
      TODAY,
    );
    expect(d).toEqual({ ok: true, status: 'Voided', set: { syncToken: '4' }, events: [], changed: [] });
  });

  it('invoicing closes the estimate with hasInvoice once (a repeat changes nothing)', () => {
    const d = decide(order('estimate', 'Open'), { action: 'invoiced' }, customer, TODAY);
    if (!d.ok) throw new Error('refused');
    expect(d.set).toEqual({ status: 'Closed', hasInvoice: true });
    expect(d.events[0]?.payload).toMatchObject({
      from: 'Open',
      order: { status: 'Closed', hasInvoice: true },
    });
    const again = decide(
      order('estimate', 'Closed', { hasInvoice: true }),
      { action: 'invoiced' },
      system,
      TODAY,
    );
    expect(again).toMatchObject({ ok: true, set: {}, events: [] });
  });

  it('completing publishes InvoiceStatusChanged and InvoiceCompleted and clears hasBeenModified', () => {
    const d = decide(
      order('invoice', 'Open', { hasBeenModified: true }),
      { action: 'complete' },
      staff,
      TODAY,
    );
    if (!d.ok) throw new Error('refused');
    expect(d.set).toEqual({ status: 'Completed', hasBeenModified: false });
    expect(d.events.map((e) => e.contract.type)).toEqual(['InvoiceStatusChanged', 'InvoiceCompleted']);
  });

  it('cancelling publishes <Type>StatusChanged to Voided with who did it', () => {
    const d = decide(order('estimate', 'Pending'), { action: 'cancel' }, customer, TODAY);
    if (!d.ok) throw new Error('refused');
    expect(d.events.map((e) => [e.contract.type, (e.payload as { from: string }).from])).toEqual([
      ['EstimateStatusChanged', 'Pending'],
    ]);
    expect(d.events[0]?.payload).toMatchObject({ actor: customer, order: { status: 'Voided', revision: 4 } });
  });
});

describe('the UI actions and the spec §6 tooltips', () => {
  it('a Pending estimate for its customer', () => {
    expect(availableActions(order('estimate', 'Pending'), customer, TODAY)).toEqual({
      edit: { allowed: true },
      requestInvoice: {
        allowed: false,
        reason: 'You may request an invoice once your estimate has been approved.',
      },
      sendToQbo: { allowed: false },
      updateInQbo: { allowed: false },
      complete: { allowed: false },
      cancel: { allowed: true },
    });
  });

  it('a Pending estimate for staff', () => {
    expect(availableActions(order('estimate', 'Pending'), staff, TODAY)).toEqual({
      edit: { allowed: true },
      requestInvoice: {
        allowed: false,
        reason: 'You may request an invoice once your estimate has been approved.',
      },
      sendToQbo: { allowed: true },
      updateInQbo: { allowed: false },
      complete: { allowed: false },
      cancel: { allowed: true },
    });
  });

  it('a modified Open estimate inside 3 days, for its customer and for staff', () => {
    const o = order('estimate', 'Open', {
      hasBeenModified: true,
      details: { ...order('estimate', 'Open').details, eventDate: '2030-06-02' },
    });
    const tooLate =
      'This event will occur in less than 3 days. If you need to change your order please contact us.';
    expect(availableActions(o, customer, TODAY)).toEqual({
      edit: { allowed: false, reason: tooLate },
      requestInvoice: {
        allowed: false,
        reason:
          'This order has been modified. You can request an invoice after your update has been approved.',
      },
      sendToQbo: { allowed: false },
      updateInQbo: { allowed: false },
      complete: { allowed: false },
      cancel: { allowed: false, reason: tooLate },
    });
    expect(availableActions(o, staff, TODAY)).toEqual({
      edit: { allowed: true },
      requestInvoice: {
        allowed: false,
        reason:
          'This order has been modified. You can request an invoice after your update has been approved.',
      },
      sendToQbo: { allowed: false, reason: 'This order is already in Quick Books.' },
      updateInQbo: { allowed: true },
      complete: { allowed: false },
      cancel: { allowed: true },
    });
  });

  it('a Closed estimate', () => {
    expect(availableActions(order('estimate', 'Closed', { hasInvoice: true }), staff, TODAY)).toEqual({
      edit: { allowed: false, reason: 'This estimate is linked to an existing invoice.' },
      requestInvoice: { allowed: false, reason: 'An invoice has already been created for this order.' },
      sendToQbo: { allowed: false, reason: 'This order is Closed' },
      updateInQbo: { allowed: false, reason: 'This order is Closed' },
      complete: { allowed: false },
      cancel: { allowed: false, reason: 'This estimate is linked to an existing invoice.' },
    });
  });

  it('a Pending and an Open invoice', () => {
    const pending = availableActions(order('invoice', 'Pending'), staff, TODAY);
    expect(pending.complete).toEqual({
      allowed: false,
      reason: 'This invoice must be opened before it can be confirmed',
    });
    expect(pending.sendToQbo).toEqual({ allowed: true });
    expect(pending.requestInvoice).toEqual({ allowed: false });
    const open = order('invoice', 'Open');
    expect(availableActions(open, customer, TODAY).cancel).toEqual({
      allowed: false,
      reason: 'The status of this order is Open, and cannot be cancelled from the site.',
    });
    expect(availableActions(open, staff, TODAY)).toMatchObject({
      cancel: { allowed: true },
      complete: { allowed: true },
    });
  });

  it.each(['Completed', 'Voided'])('a %s invoice: every button says so', (status) => {
    const actions = availableActions(order('invoice', status), staff, TODAY);
    for (const action of ['edit', 'sendToQbo', 'updateInQbo', 'complete', 'cancel'] as const)
      expect(actions[action]).toEqual({ allowed: false, reason: `This order is ${status}` });
    // Customers never get a reason on staff-only buttons.
    expect(availableActions(order('invoice', status), customer, TODAY).complete).toEqual({ allowed: false });
  });

  it('has one sentence per refusal code', () => {
    expect(refusalMessage('openInvoice', 'Open')).toBe(
      'The status of this order is Open, and cannot be cancelled from the site.',
    );
    expect(refusalMessage('terminal', 'Voided')).toBe('This order is Voided');
  });
});
