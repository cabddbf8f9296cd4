import { estimateTotals } from '@decor/contracts';
import type { Brand } from '../src/domain/email';
import {
  changeLabels,
  type Order,
  type OrderLifecycleEvent,
  orderEventEmails,
} from '../src/domain/order-emails';

const brand: Brand = { companyName: 'Gala & Co Event Rentals', baseUrl: 'https://rentals.example' };
const STAFF = 'staff@rentals.example';
const customerActor = { role: 'customer' as const, userId: 'u1' };
const staffActor = { role: 'staff' as const, userId: 's1' };
const systemActor = { role: 'system' as const, userId: null };

function order(overrides: Partial<Order> = {}): Order {
  const lines = [
    {
      productId: 'CH-GOLD',
      name: 'Gold <Chiavari> Chair',
      description: '',
      qty: 10,
      priceCents: 525,
      totalCents: 5250,
    },
  ];
  return {
    orderType: 'estimate',
    id: '6650a1b2c3d4e5f6a7b8c9d0',
    docNumber: '1042',
    userId: 'u1',
    cartId: 'c1',
    status: 'Open',
    hasBeenModified: false,
    hasInvoice: false,
    isInQbo: true,
    qboId: '88',
    customer: { email: 'ana@example.com', displayName: 'Ana "AD" Diaz', companyName: 'Evergreen <Weddings>' },
    details: {
      customerName: 'Evergreen <Weddings>',
      groupName: 'Smith & Jones wedding',
      eventDate: '2027-03-13',
      location: 'Grand Hall',
      eventStartTime: '17:30',
    },
    lines,
    ...estimateTotals(5250, 35000),
    revision: 3,
    ...overrides,
  };
}

const invoice = (overrides: Partial<Order> = {}) =>
  order({
    orderType: 'invoice',
    id: '7750a1b2c3d4e5f6a7b8c9d1',
    docNumber: '2001',
    estimateId: '6650a1b2c3d4e5f6a7b8c9d0',
    hasInvoice: undefined,
    status: 'Pending',
    isInQbo: false,
    qboId: null,
    ...overrides,
  });

const mails = (event: OrderLifecycleEvent) => orderEventEmails(brand, STAFF, event);
/** recipient → subject, the shape of a decision. */
const decided = (event: OrderLifecycleEvent) =>
  mails(event).map(({ recipient, email }) => [recipient, email.to, email.subject]);

describe('who is told what', () => {
  it('estimate approved (the QuickBooks sync landing, by the system): the customer, told by its offer', () => {
    const changed: OrderLifecycleEvent = {
      type: 'EstimateStatusChanged',
      payload: { order: order(), from: 'Pending', actor: systemActor },
    };
    expect(decided(changed)).toEqual([]);
    const offered = (opened: boolean, depositCents: number): OrderLifecycleEvent => ({
      type: 'EstimateOffered',
      payload: {
        order: order(),
        opened,
        depositCents,
        expiresAt: '2031-01-15T00:00:00.000Z',
        agreementVersion: 1,
      },
    });
    expect(decided(offered(true, 2500))).toEqual([
      ['customer', 'ana@example.com', 'Your estimate #1042 was approved'],
    ]);
    const [mail] = mails(offered(true, 2500));
    // The spec's text stays; the deposit and the Review and accept link are added (issue 30).
    expect(mail?.email.text).toContain(
      "Good news: your order request, estimate #1042, was approved. You can now request an invoice from it on your order's page.",
    );
    expect(mail?.email.text).toContain('authorise a deposit of $25.00');
    expect(mail?.email.text).toMatch(/Review and accept: https?:\/\/\S+\/orders\/estimate\/\w+\/accept/);
    expect(mail?.email.html).toContain('>Review and accept</a>');
    expect(mails(offered(true, 0))[0]?.email.text).toContain('(no deposit is due)');
    // A renewal after an approved change: 'The changes … were approved' tells it.
    expect(decided(offered(false, 2500))).toEqual([]);
  });

  it('a signature voided by a change: the customer, what changed and the link to sign again', () => {
    const [mail, ...rest] = mails({
      type: 'SignatureVoided',
      payload: { order: order(), changed: ['location', 'lines'], signedAt: '2031-01-02T10:00:00.000Z' },
    });
    expect(rest).toEqual([]);
    expect(mail?.recipient).toBe('customer');
    expect(mail?.email.subject).toBe('Your estimate #1042 changed: please sign it again');
    expect(mail?.email.text).toContain('What changed: Location, Items');
    expect(mail?.email.text).toMatch(/Review and accept: https?:\/\/\S+\/orders\/estimate\/\w+\/accept/);
  });

  it("an offer that ended unaccepted: the customer, the estimate's number, no longer acceptable, ask us to extend", () => {
    const [mail, ...rest] = mails({
      type: 'EstimateOfferExpired',
      payload: { order: order(), expiresAt: '2031-01-15T00:00:00.000Z' },
    });
    expect(rest).toEqual([]);
    expect(mail?.recipient).toBe('customer');
    expect(mail?.email.to).toBe('ana@example.com');
    expect(mail?.email.subject).toBe('Your estimate #1042 can no longer be accepted');
    for (const part of [mail?.email.text, mail?.email.html]) {
      expect(part).toContain(
        'The time to accept your estimate #1042 online has ended, so it can no longer be accepted and the items it reserved have been released.',
      );
      expect(part).toContain(
        'If you would still like to go ahead, please contact us: we can extend it so that you can review and accept it again.',
      );
    }
    // Nothing to accept: no Review and accept link, only the order's own.
    expect(mail?.email.text).not.toContain('/accept');
    expect(mail?.email.text).toContain('https://rentals.example/orders/estimate/6650a1b2c3d4e5f6a7b8c9d0');
  });

  it("an offer staff extended: the customer, its new end on the shop's clock and the Review and accept link", () => {
    const extended = (holdsTaken: boolean, at = brand) =>
      orderEventEmails(at, STAFF, {
        type: 'EstimateOfferExtended',
        payload: {
          order: order({ revision: 5 }),
          actor: staffActor,
          expiresAt: '2031-01-17T16:00:00.000Z',
          previousExpiresAt: '2031-01-10T16:00:00.000Z',
          holdsTaken,
        },
      });
    const [mail, ...rest] = extended(true);
    expect(rest).toEqual([]);
    expect(mail?.recipient).toBe('customer');
    expect(mail?.email.to).toBe('ana@example.com');
    expect(mail?.email.subject).toBe('More time to accept your estimate #1042');
    const intro =
      'We extended the time to accept your estimate #1042 online: you can review and accept it until Friday, January 17th, 2031 at 4:00 PM UTC.';
    for (const part of [mail?.email.text, mail?.email.html]) {
      expect(part).toContain(intro);
      expect(part).toContain('The items it reserves are held for you again.');
      expect(part).toContain('To confirm your booking, review the estimate and accept it online.');
      expect(part).toContain('https://rentals.example/orders/estimate/6650a1b2c3d4e5f6a7b8c9d0/accept');
    }
    expect(mail?.email.text).toContain(
      'Review and accept: https://rentals.example/orders/estimate/6650a1b2c3d4e5f6a7b8c9d0/accept',
    );
    // Extended before it ended: its items were never let go, so nothing is said of them.
    const [before] = extended(false);
    expect(before?.email.text).toContain(intro);
    expect(before?.email.text).not.toContain('held for you again');
    // The shop's clock: the same moment in Denver.
    const [denver] = extended(false, { ...brand, timeZone: 'America/Denver' });
    expect(denver?.email.text).toContain('until Friday, January 17th, 2031 at 9:00 AM MST.');
  });

  it('estimate Closed: nothing (its InvoiceCreated tells it)', () => {
    const event: OrderLifecycleEvent = {
      type: 'EstimateStatusChanged',
      payload: { order: order({ status: 'Closed', hasInvoice: true }), from: 'Open', actor: customerActor },
    };
    expect(decided(event)).toEqual([]);
  });

  it('a status "change" to the same status: nothing', () => {
    const event: OrderLifecycleEvent = {
      type: 'EstimateStatusChanged',
      payload: { order: order(), from: 'Open', actor: staffActor },
    };
    expect(decided(event)).toEqual([]);
  });

  it('cancelled by staff: the customer; by the customer: the customer and the staff', () => {
    const voided = order({ status: 'Voided' });
    expect(
      decided({ type: 'EstimateStatusChanged', payload: { order: voided, from: 'Open', actor: staffActor } }),
    ).toEqual([['customer', 'ana@example.com', 'Your estimate #1042 was cancelled']]);
    expect(
      decided({
        type: 'InvoiceStatusChanged',
        payload: { order: invoice({ status: 'Voided' }), from: 'Pending', actor: customerActor },
      }),
    ).toEqual([
      ['customer', 'ana@example.com', 'Your invoice #2001 was cancelled'],
      ['staff', STAFF, 'Invoice #2001 was cancelled by Evergreen <Weddings>'],
    ]);
  });

  it('invoice Open: the customer; invoice Completed: only InvoiceCompleted tells it', () => {
    expect(
      decided({
        type: 'InvoiceStatusChanged',
        payload: { order: invoice({ status: 'Open', isInQbo: true }), from: 'Pending', actor: staffActor },
      }),
    ).toEqual([['customer', 'ana@example.com', 'Your invoice #2001 was approved']]);
    const completed = invoice({ status: 'Completed', isInQbo: true });
    expect(
      decided({
        type: 'InvoiceStatusChanged',
        payload: { order: completed, from: 'Open', actor: staffActor },
      }),
    ).toEqual([]);
    expect(decided({ type: 'InvoiceCompleted', payload: { order: completed, actor: staffActor } })).toEqual([
      ['customer', 'ana@example.com', 'Your order (invoice #2001) is complete'],
    ]);
  });

  it('invoice requested by the customer: the customer and the staff; created by staff: the customer', () => {
    expect(decided({ type: 'InvoiceCreated', payload: { order: invoice(), actor: customerActor } })).toEqual([
      ['customer', 'ana@example.com', 'Your invoice request was received (invoice #2001, pending review)'],
      ['staff', STAFF, 'Invoice #2001 requested by Evergreen <Weddings> – pending review'],
    ]);
    expect(decided({ type: 'InvoiceCreated', payload: { order: invoice(), actor: staffActor } })).toEqual([
      ['customer', 'ana@example.com', 'An invoice (#2001) was created for your order'],
    ]);
  });

  it('edited by the customer: the staff; by staff or the system: the customer', () => {
    const modified = order({ hasBeenModified: true });
    expect(
      decided({
        type: 'EstimateUpdated',
        payload: { order: modified, actor: customerActor, changed: ['location', 'hasBeenModified'] },
      }),
    ).toEqual([['staff', STAFF, 'Estimate #1042 was edited by Evergreen <Weddings> – pending update']]);
    expect(
      decided({
        type: 'InvoiceUpdated',
        payload: { order: invoice(), actor: staffActor, changed: ['lines'] },
      }),
    ).toEqual([['customer', 'ana@example.com', 'Your invoice #2001 was updated']]);
    expect(
      decided({
        type: 'EstimateUpdated',
        payload: { order: order(), actor: systemActor, changed: ['eventDate'] },
      }),
    ).toEqual([['customer', 'ana@example.com', 'Your estimate #1042 was updated']]);
  });

  it('a customer editing an estimate not yet in QuickBooks: the staff, pending review', () => {
    const pending = order({ status: 'Pending', isInQbo: false, qboId: null, hasBeenModified: true });
    const [notice] = mails({
      type: 'EstimateUpdated',
      payload: { order: pending, actor: customerActor, changed: ['groupName'] },
    });
    expect(notice?.email.subject).toBe('Estimate #1042 was edited by Evergreen <Weddings> – pending review');
    // The one rule of spec §4, as the staff's order screen shows it: a modified order is Pending Update.
    expect(notice?.email.text).toContain('Status: Pending Update\n');
    expect(notice?.email.text).not.toContain('QuickBooks');
  });

  it("a customer's edit approved (bookkeeping only, the flag cleared): the customer", () => {
    expect(
      decided({
        type: 'EstimateUpdated',
        payload: { order: order(), actor: systemActor, changed: ['hasBeenModified', 'qboId', 'syncToken'] },
      }),
    ).toEqual([['customer', 'ana@example.com', 'The changes to your estimate #1042 were approved']]);
  });

  it('bookkeeping alone, or nothing changed: nothing', () => {
    for (const actor of [customerActor, staffActor, systemActor]) {
      expect(
        decided({
          type: 'EstimateUpdated',
          payload: { order: order(), actor, changed: ['qboId', 'isInQbo'] },
        }),
      ).toEqual([]);
      expect(decided({ type: 'InvoiceUpdated', payload: { order: invoice(), actor, changed: [] } })).toEqual(
        [],
      );
    }
  });
});

describe('the lifecycle e-mails', () => {
  const [staffNotice] = mails({
    type: 'EstimateUpdated',
    payload: {
      order: order({ hasBeenModified: true, details: { ...order().details, location: 'Hall <B> & "C"' } }),
      actor: customerActor,
      changed: ['location', 'willCallPickupDate', 'lines', 'totalCents', 'hasBeenModified'],
    },
  });
  // The approval is told by the estimate's offer (issue 30).
  const [approved] = mails({
    type: 'EstimateOffered',
    payload: {
      order: order(),
      opened: true,
      depositCents: 0,
      expiresAt: '2031-01-15T00:00:00.000Z',
      agreementVersion: 1,
    },
  });

  it('link to the order with an absolute URL in both parts', () => {
    const url = 'https://rentals.example/orders/estimate/6650a1b2c3d4e5f6a7b8c9d0';
    for (const mail of [staffNotice?.email, approved?.email]) {
      expect(mail?.text).toContain(url);
      expect(mail?.html).toContain(`href="${url}"`);
    }
    const [created] = mails({ type: 'InvoiceCreated', payload: { order: invoice(), actor: staffActor } });
    expect(created?.email.text).toContain('https://rentals.example/orders/invoice/7750a1b2c3d4e5f6a7b8c9d1');
  });

  it("carry the order's lines, totals and details in the summary formats", () => {
    const mail = approved?.email;
    // 52.50 + 350.00 trucking = 402.50; tax 8.1 % = 32.6025 → 32.60; total 435.10
    expect(mail?.text).toContain('Gold <Chiavari> Chair (CH-GOLD): 10 × $5.25 = $52.50');
    expect(mail?.text).toMatch(/Total: +\$435\.10/);
    expect(mail?.text).toContain('Event Date: Saturday, March 13th, 2027');
    expect(mail?.text).toContain('Event Start Time: 5:30 PM');
    for (const amount of ['$5.25', '$52.50', '$350.00', '$32.60', '$435.10'])
      expect(mail?.html).toContain(amount);
  });

  it('greet the customer and escape every value in HTML', () => {
    expect(approved?.email.text).toContain('Hello Ana "AD" Diaz,');
    expect(approved?.email.html).toContain('Hello Ana &quot;AD&quot; Diaz,');
    expect(approved?.email.html).toContain('Gold &lt;Chiavari&gt; Chair');
    expect(approved?.email.html).toContain('Smith &amp; Jones wedding');
    expect(approved?.email.html).toContain('Gala &amp; Co Event Rentals');
    const html = staffNotice?.email.html ?? '';
    expect(html).toContain('Hall &lt;B&gt; &amp; &quot;C&quot;');
    expect(html).toContain('Evergreen &lt;Weddings&gt;');
    expect(html).not.toContain('<Weddings>');
    expect(html).not.toContain('<B>');
  });

  it('tell staff who the customer is, what changed, and the status as they see it', () => {
    const text = staffNotice?.email.text ?? '';
    expect(text).not.toContain('Hello');
    expect(text).toContain('Name: Ana "AD" Diaz');
    expect(text).toContain('Company: Evergreen <Weddings>');
    expect(text).toContain('E-mail: ana@example.com');
    expect(text).toContain('What changed: Location, Will Call Pickup Date, Items, Totals');
    expect(text).toContain('Status: Pending Update');
    expect(text).toContain('Estimate: #1042');
  });

  it('show the customer a modified order as Pending Approval', () => {
    const [updated] = mails({
      type: 'EstimateUpdated',
      payload: { order: order({ hasBeenModified: true }), actor: staffActor, changed: ['groupName'] },
    });
    expect(updated?.email.text).toContain('Status: Pending Approval');
    expect(updated?.email.text).toContain('What changed: Group Name');
  });

  it('keep subjects on one line', () => {
    const [notice] = mails({
      type: 'InvoiceCreated',
      payload: {
        order: invoice({
          customer: { email: 'a@b.example', displayName: 'X', companyName: 'Evil\r\nBcc: v@e.com' },
        }),
        actor: customerActor,
      },
    }).filter((m) => m.recipient === 'staff');
    expect(notice?.email.subject).toBe('Invoice #2001 requested by Evil Bcc: v@e.com – pending review');
  });
});

describe('changeLabels', () => {
  it('names fields as the form does, once each, without bookkeeping; unknown ones readable', () => {
    expect(
      changeLabels(['eventDate', 'subtotalCents', 'taxCents', 'status', 'syncToken', 'setupNotes']),
    ).toEqual(['Event Date', 'Totals', 'Setup Notes']);
  });
});
