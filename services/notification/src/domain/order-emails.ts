import {
  type EstimateOfferExpired,
  type EstimateOfferExtended,
  type EstimateOffered,
  type EstimateStatusChanged,
  type EstimateUpdated,
  type InvoiceCompleted,
  type InvoiceCreated,
  type InvoiceStatusChanged,
  type InvoiceUpdated,
  OFFER_EXPIRED_EMAIL,
  OFFER_EXTENDED_EMAIL,
  type OrderState,
  orderStatusText,
  type PayloadOf,
  type SignatureVoided,
  WILL_CALL_FIELDS,
} from '@decor/contracts';
import type { Static } from '@sinclair/typebox';
import {
  type Brand,
  button,
  type Email,
  escapeHtml,
  headerText,
  heading,
  htmlDocument,
  link,
  paragraph,
  table,
} from './email';
import { DETAIL_LABELS, type DetailRow } from './estimate-details';
import { orderUrl, summary } from './estimate-emails';
import { formatMoment, formatMoney } from './format';

/**
 * The e-mails of the order lifecycle events (spec §4): the customer hears of every change of their
 * order's status and of edits made by staff (or by the system); the staff hear of what customers do
 * (edits, invoice requests, cancellations). One piece of news is told once: the estimate turning
 * Closed is told by its InvoiceCreated, an invoice turning Completed by its InvoiceCompleted.
 *
 * Pure: `orderEventEmails` decides who is told what from one event; the handler queues the result,
 * one job per recipient, its id derived from the event id and the recipient.
 */

export type Order = Static<typeof OrderState>;
export type Recipient = 'customer' | 'staff';
export type OrderEmail = { recipient: Recipient; email: Email };

/** The lifecycle events this module answers, by type. */
export type OrderLifecycleEvent =
  | { type: 'EstimateUpdated'; payload: PayloadOf<typeof EstimateUpdated> }
  | { type: 'InvoiceUpdated'; payload: PayloadOf<typeof InvoiceUpdated> }
  | { type: 'EstimateStatusChanged'; payload: PayloadOf<typeof EstimateStatusChanged> }
  | { type: 'InvoiceStatusChanged'; payload: PayloadOf<typeof InvoiceStatusChanged> }
  | { type: 'InvoiceCreated'; payload: PayloadOf<typeof InvoiceCreated> }
  | { type: 'InvoiceCompleted'; payload: PayloadOf<typeof InvoiceCompleted> }
  | { type: 'EstimateOffered'; payload: PayloadOf<typeof EstimateOffered> }
  | { type: 'SignatureVoided'; payload: PayloadOf<typeof SignatureVoided> }
  | { type: 'EstimateOfferExpired'; payload: PayloadOf<typeof EstimateOfferExpired> }
  | { type: 'EstimateOfferExtended'; payload: PayloadOf<typeof EstimateOfferExtended> };

/** Fields of `changed` that are bookkeeping, not something a person edited. */
const BOOKKEEPING = new Set([
  'status',
  'hasBeenModified',
  'hasInvoice',
  'isInQbo',
  'qboId',
  'syncToken',
  'revision',
  'updatedAt',
]);

const CHANGE_LABELS: Record<string, string> = {
  ...DETAIL_LABELS,
  // The will-call fields' own labels repeat the event's ('Customer Name'): name their section here.
  ...Object.fromEntries(WILL_CALL_FIELDS.map((f) => [f, `Will Call ${DETAIL_LABELS[f]}`])),
  lines: 'Items',
  cart: 'Items',
  CartProducts: 'Items',
  subtotalCents: 'Totals',
  taxCents: 'Totals',
  totalCents: 'Totals',
  truckingCents: 'Trucking fee',
};

/** 'loadInTime' → 'Load In Time' for a field we have no label for. */
function humanize(field: string): string {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a person changed, as the form names it (bookkeeping left out, each label once). */
export function changeLabels(changed: readonly string[]): string[] {
  const labels = changed.filter((f) => !BOOKKEEPING.has(f)).map((f) => CHANGE_LABELS[f] ?? humanize(f));
  return [...new Set(labels)];
}

const noun = (order: Order) => (order.orderType === 'invoice' ? 'invoice' : 'estimate');
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const docRef = (order: Order) => `${noun(order)} #${order.docNumber}`;

/** How staff name the customer: company, else display name, else address. */
function customerName(order: Order): string {
  const { customer } = order;
  return customer.companyName?.trim() || customer.displayName.trim() || customer.email;
}

/** The status as each side sees it: contracts' one rule (spec §4 'Pending Approval' / 'Pending Update'). */
const statusLabel = (order: Order, recipient: Recipient) => orderStatusText(order, recipient);

interface Message {
  subject: string;
  intro: string;
  /** Labels of what changed, when the news is an edit. */
  changed?: string[];
  /** Issue 30: what the customer can do next (a line and its link), after the intro. */
  next?: { line: string; url: string; label: string };
  /** Issue 30: a further paragraph after the intro, without a link (e.g. whom to ask). */
  note?: string;
  buttonLabel: string;
}

function orderEmail(brand: Brand, to: string, recipient: Recipient, order: Order, m: Message): Email {
  const subject = headerText(m.subject);
  const url = orderUrl(brand, order.orderType, order.id);
  const name = order.customer.displayName.trim();
  const greeting = recipient === 'customer' ? [name ? `Hello ${name},` : 'Hello,'] : [];
  const changed = m.changed && m.changed.length > 0 ? `What changed: ${m.changed.join(', ')}` : '';
  const orderRows: DetailRow[] = [
    { label: capitalized(noun(order)), value: `#${order.docNumber}` },
    { label: 'Status', value: statusLabel(order, recipient) },
  ];
  const customerRows: DetailRow[] =
    recipient === 'staff'
      ? [
          { label: 'Name', value: order.customer.displayName.trim() },
          { label: 'Company', value: order.customer.companyName?.trim() ?? '' },
          { label: 'E-mail', value: order.customer.email },
        ].filter((r) => r.value !== '')
      : [];
  const parts = summary(order);
  const rowsText = (rows: DetailRow[]) => rows.map((r) => `  ${r.label}: ${r.value}`);
  const rowsTable = (rows: DetailRow[]) => table(rows.map((r) => [{ text: r.label, bold: true }, r.value]));
  const text = [
    ...greeting.flatMap((g) => [g, '']),
    m.intro,
    ...(m.note ? ['', m.note] : []),
    ...(m.next ? ['', m.next.line, `${m.next.label}: ${m.next.url}`] : []),
    ...(changed ? ['', changed] : []),
    '',
    'Order',
    ...rowsText(orderRows),
    ...(customerRows.length > 0 ? ['', 'Customer', ...rowsText(customerRows)] : []),
    '',
    ...parts.text,
    '',
    `${m.buttonLabel}: ${url}`,
    '',
    `${brand.companyName} · ${brand.baseUrl}`,
  ].join('\n');
  const html = htmlDocument(brand, subject, [
    ...greeting.map((g) => paragraph(escapeHtml(g))),
    paragraph(escapeHtml(m.intro)),
    ...(m.note ? [paragraph(escapeHtml(m.note))] : []),
    ...(m.next ? [paragraph(escapeHtml(m.next.line)), button(m.next.url, m.next.label)] : []),
    ...(changed ? [paragraph(escapeHtml(changed))] : []),
    heading('Order'),
    rowsTable(orderRows),
    ...(customerRows.length > 0 ? [heading('Customer'), rowsTable(customerRows)] : []),
    ...parts.html,
    button(url, m.buttonLabel),
    paragraph(`Or open this link: ${link(url)}`),
  ]);
  return { to, subject, text, html };
}

const toCustomer = (brand: Brand, order: Order, m: Omit<Message, 'buttonLabel'>): OrderEmail => ({
  recipient: 'customer',
  email: orderEmail(brand, order.customer.email, 'customer', order, {
    ...m,
    buttonLabel: `View your ${noun(order)}`,
  }),
});

const toStaff = (
  brand: Brand,
  staffEmail: string,
  order: Order,
  m: Omit<Message, 'buttonLabel'>,
): OrderEmail => ({
  recipient: 'staff',
  email: orderEmail(brand, staffEmail, 'staff', order, { ...m, buttonLabel: `Review the ${noun(order)}` }),
});

/** A status change, told to the customer (and to the staff when the customer cancelled). */
function statusChanged(
  brand: Brand,
  staffEmail: string,
  order: Order,
  from: string,
  actor: { role: string },
): OrderEmail[] {
  if (order.status === from) return [];
  const ref = docRef(order);
  switch (order.status) {
    case 'Open':
      // An estimate's approval is told by its EstimateOffered (the same e-mail, with the deposit and
      // the Review and accept link: issue 30), written right after this change.
      if (order.orderType === 'estimate') return [];
      return [
        toCustomer(brand, order, {
          subject: `Your ${ref} was approved`,
          intro: `Good news: your invoice #${order.docNumber} was approved and is now open.`,
        }),
      ];
    case 'Voided': {
      const byCustomer = actor.role === 'customer';
      return [
        toCustomer(brand, order, {
          subject: `Your ${ref} was cancelled`,
          intro: byCustomer
            ? `Your ${ref} was cancelled, as you asked.`
            : `Your ${ref} was cancelled. If you did not expect this, please contact us.`,
        }),
        ...(byCustomer
          ? [
              toStaff(brand, staffEmail, order, {
                subject: `${capitalized(ref)} was cancelled by ${customerName(order)}`,
                intro: `${customerName(order)} cancelled ${ref} (it was ${from}).`,
              }),
            ]
          : []),
      ];
    }
    // An estimate turns Closed when its invoice is created: InvoiceCreated tells that.
    // An invoice turns Completed beside InvoiceCompleted: that one tells it.
    case 'Closed':
      if (order.orderType === 'estimate') return [];
      break;
    case 'Completed':
      if (order.orderType === 'invoice') return [];
      break;
  }
  return [
    toCustomer(brand, order, {
      subject: `Your ${ref} is now ${order.status}`,
      intro: `The status of your ${ref} changed from ${from} to ${order.status}.`,
    }),
  ];
}

/** An edit: staff hear of a customer's, the customer of anyone else's (staff, or the system). */
function updated(
  brand: Brand,
  staffEmail: string,
  order: Order,
  actor: { role: string },
  changedFields: readonly string[],
): OrderEmail[] {
  const ref = docRef(order);
  const changed = changeLabels(changedFields);
  if (actor.role === 'customer') {
    if (changed.length === 0) return [];
    const inQbo = order.isInQbo;
    return [
      toStaff(brand, staffEmail, order, {
        subject: `${capitalized(ref)} was edited by ${customerName(order)} – pending ${inQbo ? 'update' : 'review'}`,
        intro: inQbo
          ? `${customerName(order)} edited ${ref}. It is pending update: review the changes and update it in QuickBooks.`
          : `${customerName(order)} edited ${ref}, which is pending review.`,
        changed,
      }),
    ];
  }
  if (changed.length > 0) {
    return [
      toCustomer(brand, order, {
        subject: `Your ${ref} was updated`,
        intro: `We updated your ${ref}. Here is how it stands now.`,
        changed,
      }),
    ];
  }
  // Nothing a person edited: only bookkeeping. The one piece of news in that is the order leaving
  // 'Pending Approval' (the modified order landed in QuickBooks, clearing the flag). Whoever made
  // the changes, the customer saw them pending approval. A landing that also changes the status is
  // told by its StatusChanged.
  if (
    changedFields.includes('hasBeenModified') &&
    !order.hasBeenModified &&
    !changedFields.includes('status')
  ) {
    return [
      toCustomer(brand, order, {
        subject: `The changes to your ${ref} were approved`,
        intro: `The latest changes to your ${ref} were approved; it is no longer pending approval.`,
      }),
    ];
  }
  return [];
}

/** Who is told what of one lifecycle event (empty: nothing worth an e-mail). */
export function orderEventEmails(brand: Brand, staffEmail: string, event: OrderLifecycleEvent): OrderEmail[] {
  switch (event.type) {
    case 'EstimateUpdated':
    case 'InvoiceUpdated': {
      const { order, actor, changed } = event.payload;
      return updated(brand, staffEmail, order, actor, changed);
    }
    case 'EstimateStatusChanged':
    case 'InvoiceStatusChanged': {
      const { order, from, actor } = event.payload;
      return statusChanged(brand, staffEmail, order, from, actor);
    }
    case 'InvoiceCreated': {
      const { order, actor } = event.payload;
      const ref = docRef(order);
      if (actor.role === 'customer') {
        return [
          toCustomer(brand, order, {
            subject: `Your invoice request was received (invoice #${order.docNumber}, pending review)`,
            intro: `We received your invoice request. Your ${ref} is pending review; we will be in touch once we have reviewed it.`,
          }),
          toStaff(brand, staffEmail, order, {
            subject: `Invoice #${order.docNumber} requested by ${customerName(order)} – pending review`,
            intro: `${customerName(order)} requested an invoice from their estimate: ${ref} was created and is pending review.`,
          }),
        ];
      }
      return [
        toCustomer(brand, order, {
          subject: `An invoice (#${order.docNumber}) was created for your order`,
          intro: `We created ${ref} from your estimate.`,
        }),
      ];
    }
    case 'EstimateOffered': {
      const { order, opened, depositCents } = event.payload;
      if (!opened) return []; // a renewal after an approved change: 'The changes … were approved' tells it
      return [
        toCustomer(brand, order, {
          subject: `Your ${docRef(order)} was approved`,
          intro: `Good news: your order request, estimate #${order.docNumber}, was approved. You can now request an invoice from it on your order's page.`,
          next: {
            line:
              depositCents > 0
                ? `To confirm your booking, review and accept it online: sign the rental agreement and authorise a deposit of ${formatMoney(depositCents)} (held on your card, not charged until your invoice).`
                : 'To confirm your booking, review and accept it online: sign the rental agreement (no deposit is due).',
            url: `${orderUrl(brand, 'estimate', order.id)}/accept`,
            label: 'Review and accept',
          },
        }),
      ];
    }
    case 'SignatureVoided': {
      const { order, changed } = event.payload;
      return [
        toCustomer(brand, order, {
          subject: `Your estimate #${order.docNumber} changed: please sign it again`,
          intro: `Your estimate #${order.docNumber} changed after you accepted it, so your signature no longer applies. Any deposit you authorised stays in place.`,
          changed: changeLabels(changed),
          next: {
            line: 'Once the changes are approved, review the estimate and sign it again to confirm your booking.',
            url: `${orderUrl(brand, 'estimate', order.id)}/accept`,
            label: 'Review and accept',
          },
        }),
      ];
    }
    case 'EstimateOfferExpired': {
      // The offer ended unaccepted (issue 30): the customer only; staff see it in the orders list.
      const { order } = event.payload;
      return [
        toCustomer(brand, order, {
          subject: OFFER_EXPIRED_EMAIL.subject(order.docNumber),
          intro: OFFER_EXPIRED_EMAIL.intro(order.docNumber),
          note: OFFER_EXPIRED_EMAIL.contact,
        }),
      ];
    }
    case 'EstimateOfferExtended': {
      // Staff gave the customer more time (issue 30): the new end and the link; the customer only.
      const { order, expiresAt, holdsTaken } = event.payload;
      const intro = OFFER_EXTENDED_EMAIL.intro(order.docNumber, formatMoment(expiresAt, brand.timeZone));
      return [
        toCustomer(brand, order, {
          subject: OFFER_EXTENDED_EMAIL.subject(order.docNumber),
          intro,
          ...(holdsTaken ? { note: OFFER_EXTENDED_EMAIL.heldAgain } : {}),
          next: {
            line: OFFER_EXTENDED_EMAIL.next,
            url: `${orderUrl(brand, 'estimate', order.id)}/accept`,
            label: OFFER_EXTENDED_EMAIL.link,
          },
        }),
      ];
    }
    case 'InvoiceCompleted': {
      const { order } = event.payload;
      return [
        toCustomer(brand, order, {
          subject: `Your order (invoice #${order.docNumber}) is complete`,
          intro: `Your order, invoice #${order.docNumber}, is complete. Thank you for renting with ${brand.companyName}.`,
        }),
      ];
    }
  }
}
