/** The order service's pure rules: event details, the cart rules, totals, the 3-day rule, the view. */
import { DETAIL_FIELDS, isRealDate, parseDetails, withCustomerName } from '../src/domain/details';
import {
  buildEstimate,
  type CartSnapshot,
  cartRefusal,
  docNumberOf,
  MESSAGES,
  statusFromQuery,
} from '../src/domain/estimate';
import { calendarDate, canBeModified } from '../src/domain/modification';
import { type EstimateRecord, estimateView, type OrderRecord } from '../src/domain/view';

const required = { groupName: 'Smith Wedding', eventDate: '2031-06-14', location: 'Grand Hall' };

describe('event details', () => {
  it.each([
    ['2028-02-29', true],
    ['2027-02-29', false],
    ['2027-02-30', false],
    ['2027-04-31', false],
    ['2027-13-01', false],
    ['2027-00-10', false],
    ['2027-12-31', true],
    ['0999-01-01', false],
    ['2027-1-01', false],
    ['2027-01-01T00:00:00Z', false],
  ])('isRealDate(%s) is %s', (value, real) => {
    expect(isRealDate(value)).toBe(real);
  });

  it('trims every field, drops empty ones and keeps the rest', () => {
    const parsed = parseDetails({
      ...required,
      groupName: '  Smith Wedding  ',
      room: '   ',
      commentsOnSetup: ' Round tables ',
      eventStartTime: '',
    });
    expect(parsed).toEqual({ details: { ...required, commentsOnSetup: 'Round tables' } });
  });

  it.each(['groupName', 'eventDate', 'location'] as const)('requires %s (missing or blank)', (field) => {
    expect(parseDetails({ ...required, [field]: undefined })).toEqual({ problem: `${field} is required` });
    expect(parseDetails({ ...required, [field]: '  ' })).toEqual({ problem: `${field} is required` });
  });

  it('refuses an event date that is not YYYY-MM-DD, or not a day of the calendar', () => {
    expect(parseDetails({ ...required, eventDate: '06/14/2031' })).toEqual({
      problem: 'eventDate must be a date in the form YYYY-MM-DD',
    });
    expect(parseDetails({ ...required, eventDate: '2027-02-30' })).toEqual({
      problem: 'eventDate must be a real date',
    });
    expect(parseDetails({ ...required, eventDate: ' 2028-02-29 ' })).toEqual({
      details: { ...required, eventDate: '2028-02-29' },
    });
  });

  it('limits lengths after trimming', () => {
    expect(parseDetails({ ...required, groupName: ` ${'g'.repeat(200)} ` })).toHaveProperty('details');
    expect(parseDetails({ ...required, groupName: 'g'.repeat(201) })).toEqual({
      problem: 'groupName must be at most 200 characters',
    });
    expect(parseDetails({ ...required, commentsOnEvent: 'c'.repeat(2001) })).toEqual({
      problem: 'commentsOnEvent must be at most 2000 characters',
    });
  });

  it("ignores the client's customer name; the company name replaces it", () => {
    const parsed = parseDetails({ ...required, customerName: 'Someone Else' });
    if (!('details' in parsed)) throw new Error(parsed.problem);
    expect(parsed.details).not.toHaveProperty('customerName');
    expect(withCustomerName(parsed.details, 'Evergreen Weddings')).toEqual({
      customerName: 'Evergreen Weddings',
      ...required,
    });
  });

  it('sets the will-call customer name only when will call is used', () => {
    const withPickup = withCustomerName(
      { ...required, willCallCustomerName: 'Forged', willCallPickupDate: '2031-06-13' },
      'Evergreen',
    );
    expect(withPickup).toMatchObject({ customerName: 'Evergreen', willCallCustomerName: 'Evergreen' });
    const prefilledOnly = withCustomerName({ ...required, willCallCustomerName: 'Evergreen' }, 'Evergreen');
    expect(prefilledOnly.willCallCustomerName).toBe('Evergreen');
    expect(withCustomerName({ ...required }, 'Evergreen')).not.toHaveProperty('willCallCustomerName');
  });

  it('knows the 18 fields of the spec', () => {
    expect(DETAIL_FIELDS).toHaveLength(18);
  });
});

const cart: CartSnapshot = {
  id: 'cart-1',
  userId: 'user-1',
  isActive: true,
  didCheckOut: false,
  lines: [
    { productId: 'SEA-CH-001', name: 'Chair', description: 'Gold', qty: 2, priceCents: 1250, qboId: '7' },
    { productId: 'BAR-FR-001', name: 'Bar', description: 'Front', qty: 1, priceCents: 8000 },
  ],
};

describe('submitting a cart', () => {
  it('accepts the active, unsubmitted, non-empty cart of its owner', () => {
    expect(cartRefusal(cart, 'user-1', false)).toBeNull();
  });

  it('refuses, in this order: missing or not yours (404), submitted, inactive, empty (409)', () => {
    expect(cartRefusal(null, 'user-1', false)).toEqual({ status: 404, message: MESSAGES.cartNotFound });
    expect(cartRefusal(cart, 'user-2', false)).toEqual({ status: 404, message: 'Cart not found' });
    expect(cartRefusal(cart, 'user-1', true)).toEqual({
      status: 409,
      message: 'This cart has already been submitted',
    });
    const checkedOut = { ...cart, isActive: false, didCheckOut: true };
    expect(cartRefusal(checkedOut, 'user-1', false)?.message).toBe('This cart has already been submitted');
    expect(cartRefusal({ ...cart, isActive: false }, 'user-1', false)).toEqual({
      status: 409,
      message: 'Only your active cart can be submitted',
    });
    expect(cartRefusal({ ...cart, lines: [] }, 'user-1', false)).toEqual({
      status: 409,
      message: 'Your cart is empty',
    });
  });

  it('snapshots the lines and computes subtotal, 8.1 % tax on subtotal + trucking, and total', () => {
    const draft = buildEstimate(cart, { ...required }, 35_000);
    expect(draft.lines).toEqual([
      {
        productId: 'SEA-CH-001',
        name: 'Chair',
        description: 'Gold',
        qty: 2,
        priceCents: 1250,
        totalCents: 2500,
        qboId: '7',
      },
      {
        productId: 'BAR-FR-001',
        name: 'Bar',
        description: 'Front',
        qty: 1,
        priceCents: 8000,
        totalCents: 8000,
        qboId: null,
      },
    ]);
    // round((10500 + 35000) × 0.081) = round(3685.5) = 3686
    expect(draft).toMatchObject({
      cartId: 'cart-1',
      userId: 'user-1',
      status: 'Pending',
      subtotalCents: 10_500,
      truckingCents: 35_000,
      taxCents: 3686,
      totalCents: 49_186,
    });
  });

  it('numbers estimates from 1001', () => {
    expect(docNumberOf(1)).toBe('1001');
    expect(docNumberOf(250)).toBe('1250');
  });

  it('reads list status filters in any case', () => {
    expect(statusFromQuery('pending')).toBe('Pending');
    expect(statusFromQuery('VOIDED')).toBe('Voided');
    expect(statusFromQuery('lost')).toBeUndefined();
  });
});

describe("the 3-day rule (can-be-modified: the lifecycle's edit)", () => {
  const customer = { role: 'customer', userId: 'user-1' } as const;
  const staff = { role: 'staff', userId: 'staff-1' } as const;
  const anOrder = (status: string, eventDate: string): OrderRecord => ({
    orderType: 'estimate',
    id: 'e1',
    docNumber: '1001',
    userId: 'user-1',
    cartId: 'cart-1',
    estimateId: null,
    status,
    hasBeenModified: false,
    hasInvoice: false,
    isInQbo: false,
    qboId: null,
    syncToken: null,
    details: { groupName: 'Gala', eventDate, location: 'Hall' },
    lines: [],
    subtotalCents: 0,
    truckingCents: 0,
    taxCents: 0,
    totalCents: 0,
    customer: { email: 'pat@example.com', displayName: 'Pat', ownCompany: null, qboId: null },
    createdAt: new Date('2030-01-01T00:00:00Z'),
    revision: 1,
    editedRevision: 0,
    subRental: null,
  });
  const byCustomer = (status: string, eventDate: string, today: string) =>
    canBeModified(anOrder(status, eventDate), customer, today);

  it('lets a customer change a non-terminal order until 3 days before the event', () => {
    const today = '2030-12-30';
    expect(byCustomer('Pending', '2031-01-02', today)).toBe(true);
    expect(byCustomer('Pending', '2031-01-01', today)).toBe(false);
    expect(byCustomer('Pending', '2030-12-30', today)).toBe(false);
    expect(byCustomer('Pending', '2029-05-01', today)).toBe(false);
    expect(byCustomer('Pending', '2031-06-01', today)).toBe(true);
  });

  it('counts calendar days across month ends and leap days', () => {
    expect(byCustomer('Pending', '2028-03-01', '2028-02-27')).toBe(true);
    expect(byCustomer('Pending', '2028-03-01', '2028-02-28')).toBe(false);
  });

  it.each(['Closed', 'Completed', 'Voided'])('never when the order is %s (terminal)', (status) => {
    expect(byCustomer(status, '2040-01-01', '2030-01-01')).toBe(false);
    expect(canBeModified(anOrder(status, '2040-01-01'), staff, '2030-01-01')).toBe(false);
  });

  it('still when the order is Open (the change then waits for approval); staff also within 3 days', () => {
    expect(byCustomer('Open', '2040-01-01', '2030-01-01')).toBe(true);
    expect(canBeModified(anOrder('Open', '2030-01-02'), staff, '2030-01-01')).toBe(true);
  });

  it('takes "today" from the business time zone', () => {
    const instant = new Date('2030-06-01T03:00:00Z');
    expect(calendarDate(instant, 'UTC')).toBe('2030-06-01');
    expect(calendarDate(instant, 'America/Denver')).toBe('2030-05-31');
  });
});

describe('the estimate view', () => {
  const record: EstimateRecord = {
    orderType: 'estimate',
    estimateId: null,
    revision: 0,
    editedRevision: 0,
    subRental: null,
    id: 'e1',
    docNumber: '1001',
    userId: 'user-1',
    cartId: 'cart-1',
    status: 'Pending',
    hasBeenModified: false,
    hasInvoice: false,
    isInQbo: false,
    qboId: null,
    syncToken: null,
    details: { customerName: 'Evergreen', ...required, room: 'B' },
    lines: buildEstimate(cart, {}, 35_000).lines,
    subtotalCents: 10_500,
    truckingCents: 35_000,
    taxCents: 3686,
    totalCents: 49_186,
    customer: { email: 'pat@example.com', displayName: 'Pat Lee', ownCompany: 'Evergreen', qboId: null },
    createdAt: new Date('2030-01-02T03:04:05.000Z'),
  };

  it('shows dollars, the spec names, and every detail field (null when empty)', () => {
    const view = estimateView(record);
    expect(view).toMatchObject({
      id: 'e1',
      DocNumber: '1001',
      UserId: 'user-1',
      CartId: 'cart-1',
      subtotal: 105,
      truckingFee: 350,
      salesTax: 36.86,
      total: 491.86,
      createdAt: '2030-01-02T03:04:05.000Z',
      customerName: 'Evergreen',
      groupName: 'Smith Wedding',
      room: 'B',
      operationsManager: null,
      willCallReturnTime: null,
      User: { displayName: 'Pat Lee', ownCompany: 'Evergreen', email: 'pat@example.com', qboId: null },
    });
    expect(view.CartProducts).toEqual([
      { id: 'SEA-CH-001', name: 'Chair', description: 'Gold', qty: 2, price: 12.5, total: 25, qboId: '7' },
      { id: 'BAR-FR-001', name: 'Bar', description: 'Front', qty: 1, price: 80, total: 80, qboId: null },
    ]);
    for (const field of DETAIL_FIELDS) expect(view).toHaveProperty(field);
  });
});
