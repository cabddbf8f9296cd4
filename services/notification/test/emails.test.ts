import { estimateTotals } from '@decor/contracts';
import { enquiryEmail } from '../src/domain/enquiry-email';
import { eventDetailRows, willCallRows } from '../src/domain/estimate-details';
import {
  estimateReceivedEmail,
  newEstimateStaffEmail,
  type SubmittedEstimate,
} from '../src/domain/estimate-emails';
import { welcomeEmail } from '../src/domain/welcome-email';

const brand = { companyName: 'Gala & Co Event Rentals', baseUrl: 'https://rentals.example' };

/** Every absolute link of a part. */
const links = (text: string) => text.match(/https?:\/\/[^\s"<>]+/g) ?? [];

describe('welcome e-mail', () => {
  const setPasswordUrl = 'https://rentals.example/reset/abc.def';
  const mail = welcomeEmail(brand, {
    email: 'ana@example.com',
    displayName: 'Ana <b>Diaz</b>',
    setPasswordUrl,
    expiresAt: '2026-11-30T12:00:00.000Z',
  });

  it('is addressed to the new user and says what it is', () => {
    expect(mail.to).toBe('ana@example.com');
    expect(mail.subject).toBe('Welcome to Gala & Co Event Rentals');
  });

  it('greets by display name, escaped in HTML, and names the company', () => {
    expect(mail.text).toContain('Hello Ana <b>Diaz</b>,');
    expect(mail.html).toContain('Hello Ana &lt;b&gt;Diaz&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>Diaz</b>');
    expect(mail.html).toContain('Gala &amp; Co Event Rentals');
    expect(mail.text).toContain('Gala & Co Event Rentals');
  });

  it('carries the set-password link in both parts, with its last day, and the site', () => {
    expect(links(mail.text)).toEqual(expect.arrayContaining([setPasswordUrl, 'https://rentals.example/']));
    expect(mail.html).toContain(`href="${setPasswordUrl}"`);
    expect(mail.html).toContain('Choose your password');
    expect(mail.text).toContain('until November 30, 2026');
  });

  it('says plain "Hello," when no name is known', () => {
    const plain = welcomeEmail(brand, {
      email: 'ana@example.com',
      displayName: '  ',
      setPasswordUrl,
      expiresAt: '',
    });
    expect(plain.text.startsWith('Hello,\n')).toBe(true);
    expect(plain.text).toContain('The link works once.');
  });
});

function estimate(overrides: Partial<SubmittedEstimate> = {}): SubmittedEstimate {
  const lines = [
    {
      productId: 'CH-GOLD',
      name: 'Gold <Chiavari> Chair',
      description: '',
      qty: 10,
      priceCents: 525,
      totalCents: 5250,
    },
    {
      productId: 'BAR-1',
      name: 'Bar Front & Back',
      description: '',
      qty: 2,
      priceCents: 15000,
      totalCents: 30000,
    },
  ];
  const subtotal = lines.reduce((s, l) => s + l.totalCents, 0);
  return {
    estimateId: '6650a1b2c3d4e5f6a7b8c9d0',
    docNumber: '1042',
    status: 'Pending',
    userId: 'u1',
    cartId: 'c1',
    customer: { email: 'ana@example.com', displayName: 'Ana "AD" Diaz', companyName: 'Evergreen <Weddings>' },
    details: {
      customerName: 'Evergreen <Weddings>',
      groupName: 'Smith & Jones wedding',
      eventDate: '2027-03-13',
      location: 'Grand Hall',
      eventStartTime: '17:30',
      commentsOnSetup: 'Round tables\n<script>alert(1)</script>',
      willCallCustomerName: 'Evergreen <Weddings>',
      willCallPickupDate: '2027-03-12',
      willCallPickupTime: '09:00',
    },
    lines,
    ...estimateTotals(subtotal, 35000),
    submittedAt: '2027-03-01T10:00:00.000Z',
    ...overrides,
  };
}

describe('estimate details', () => {
  it('shows filled event fields in form order, dates long and times 12-hour', () => {
    expect(eventDetailRows(estimate().details)).toEqual([
      { label: 'Customer Name', value: 'Evergreen <Weddings>' },
      { label: 'Group Name', value: 'Smith & Jones wedding' },
      { label: 'Event Date', value: 'Saturday, March 13th, 2027' },
      { label: 'Location', value: 'Grand Hall' },
      { label: 'Event Start Time', value: '5:30 PM' },
      { label: 'Comments On Setup', value: 'Round tables\n<script>alert(1)</script>' },
    ]);
  });

  it('shows will call only when at least two will-call values are filled', () => {
    expect(willCallRows({ willCallCustomerName: 'Evergreen' })).toEqual([]);
    expect(willCallRows({ willCallCustomerName: 'Evergreen', willCallPickupDate: '  ' })).toEqual([]);
    expect(willCallRows({ willCallPickupDate: '2027-03-12', willCallReturnTime: '08:15' })).toEqual([
      { label: 'Pickup Date', value: 'Friday, March 12th, 2027' },
      { label: 'Return Time', value: '8:15 AM' },
    ]);
  });
});

describe('estimate received e-mail (customer)', () => {
  const mail = estimateReceivedEmail(brand, estimate());

  it('goes to the customer and says the request was received and is pending review', () => {
    expect(mail.to).toBe('ana@example.com');
    expect(mail.subject).toBe('Your order request (estimate #1042) was received and is pending review');
  });

  it('lists qty, price and line total of each line, and the totals in dollars', () => {
    expect(mail.text).toContain('Gold <Chiavari> Chair (CH-GOLD): 10 × $5.25 = $52.50');
    expect(mail.text).toContain('Bar Front & Back (BAR-1): 2 × $150.00 = $300.00');
    // 352.50 + 350.00 trucking = 702.50; tax 8.1 % = 56.9025 → 56.90; total 759.40
    expect(mail.text).toMatch(/Subtotal: +\$352\.50/);
    expect(mail.text).toMatch(/Trucking fee: +\$350\.00/);
    expect(mail.text).toMatch(/Sales tax: +\$56\.90/);
    expect(mail.text).toMatch(/Total: +\$759\.40/);
    for (const amount of ['$5.25', '$52.50', '$150.00', '$300.00', '$352.50', '$350.00', '$56.90', '$759.40'])
      expect(mail.html).toContain(amount);
    expect(mail.html).toContain('Gold &lt;Chiavari&gt; Chair (CH-GOLD)');
  });

  it('shows the event details and the will call (two values filled), escaped in HTML', () => {
    expect(mail.text).toContain('Event Date: Saturday, March 13th, 2027');
    expect(mail.text).toContain('Event Start Time: 5:30 PM');
    expect(mail.text).toContain('Will call');
    expect(mail.text).toContain('Pickup Time: 9:00 AM');
    expect(mail.html).toContain('Smith &amp; Jones wedding');
    expect(mail.html).toContain('Round tables<br>&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<Weddings>');
  });

  it('leaves the will-call section out when only the prefilled name is there', () => {
    const { willCallPickupDate: _d, willCallPickupTime: _t, ...details } = estimate().details;
    const plain = estimateReceivedEmail(brand, estimate({ details }));
    expect(plain.text).not.toContain('Will call');
    expect(plain.html).not.toContain('Will call');
  });

  it("links to the order's page with an absolute URL in both parts", () => {
    const url = 'https://rentals.example/orders/estimate/6650a1b2c3d4e5f6a7b8c9d0';
    expect(links(mail.text)).toContain(url);
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.html).toContain('Gala &amp; Co Event Rentals');
  });

  it('greets the customer by display name, escaped in HTML', () => {
    expect(mail.text).toContain('Hello Ana "AD" Diaz,');
    expect(mail.html).toContain('Hello Ana &quot;AD&quot; Diaz,');
  });
});

describe('new estimate e-mail (staff)', () => {
  const mail = newEstimateStaffEmail(brand, 'staff@rentals.example', estimate());

  it('goes to the staff address and names the estimate and the customer', () => {
    expect(mail.to).toBe('staff@rentals.example');
    expect(mail.subject).toBe('New estimate #1042 from Evergreen <Weddings> – pending review');
    expect(mail.text).toContain('Name: Ana "AD" Diaz');
    expect(mail.text).toContain('Company: Evergreen <Weddings>');
    expect(mail.text).toContain('E-mail: ana@example.com');
    expect(mail.html).toContain('Evergreen &lt;Weddings&gt;');
  });

  it('carries the same lines, totals and details, and the link to the order', () => {
    expect(mail.text).toContain('Gold <Chiavari> Chair (CH-GOLD): 10 × $5.25 = $52.50');
    expect(mail.text).toMatch(/Total: +\$759\.40/);
    expect(mail.text).toContain('Pickup Date: Friday, March 12th, 2027');
    expect(links(mail.text)).toContain('https://rentals.example/orders/estimate/6650a1b2c3d4e5f6a7b8c9d0');
    expect(mail.html).toContain('href="https://rentals.example/orders/estimate/6650a1b2c3d4e5f6a7b8c9d0"');
  });

  it('falls back to the display name in the subject when there is no company', () => {
    const { companyName: _c, ...customer } = estimate().customer;
    const solo = newEstimateStaffEmail(brand, 'staff@rentals.example', estimate({ customer }));
    expect(solo.subject).toBe('New estimate #1042 from Ana "AD" Diaz – pending review');
    expect(solo.text).not.toContain('Company:');
  });
});

describe('website enquiry e-mail', () => {
  const mail = enquiryEmail(brand, 'staff@rentals.example', {
    name: 'Bo\r\nBcc: victim@example.com',
    email: 'bo@example.com',
    phone: '555-0100',
    message: 'Do you rent <marquee> letters?\nThanks & bye',
  });

  it('goes to the staff with reply-to the visitor', () => {
    expect(mail.to).toBe('staff@rentals.example');
    expect(mail.replyTo).toBe('bo@example.com');
  });

  it('has a one-line subject naming the visitor', () => {
    expect(mail.subject).toBe('Website enquiry from Bo Bcc: victim@example.com');
  });

  it('carries the message and contact details, escaped in HTML with line breaks kept', () => {
    expect(mail.text).toContain('Phone: 555-0100');
    expect(mail.text).toContain('Do you rent <marquee> letters?\nThanks & bye');
    expect(mail.html).toContain('Do you rent &lt;marquee&gt; letters?<br>Thanks &amp; bye');
    expect(mail.html).not.toContain('<marquee>');
    expect(mail.html).toContain('Gala &amp; Co Event Rentals');
  });

  it('leaves the phone line out when none was given', () => {
    const noPhone = enquiryEmail(brand, 'staff@rentals.example', {
      name: 'Bo',
      email: 'b@e.com',
      message: 'Hi',
    });
    expect(noPhone.text).not.toContain('Phone');
  });
});
