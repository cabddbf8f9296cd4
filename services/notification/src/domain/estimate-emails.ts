import type { EstimateSubmitted, PayloadOf } from '@decor/contracts';
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
  type TableCell,
  table,
} from './email';
import { type DetailRow, eventDetailRows, willCallRows } from './estimate-details';
import { formatMoney } from './format';

export type SubmittedEstimate = PayloadOf<typeof EstimateSubmitted>;

/** What the summary of any order shows: an estimate as submitted, or an order's state in a lifecycle event. */
export type OrderContent = Pick<
  SubmittedEstimate,
  'details' | 'lines' | 'subtotalCents' | 'truckingCents' | 'taxCents' | 'totalCents'
>;

/** The order screen (customers and staff share it; spec routes /orders/estimate/{id}, /orders/invoice/{id}). */
export function orderUrl(brand: Brand, orderType: 'estimate' | 'invoice', orderId: string): string {
  return `${brand.baseUrl}/orders/${orderType}/${encodeURIComponent(orderId)}`;
}

export function estimateUrl(brand: Brand, estimateId: string): string {
  return orderUrl(brand, 'estimate', estimateId);
}

const right = (text: string): TableCell => ({ text, align: 'right' });

/** The parts every order e-mail shares: lines, totals, event details and (when filled) will call. */
export function summary(estimate: OrderContent): { text: string[]; html: string[] } {
  const money = {
    subtotal: formatMoney(estimate.subtotalCents),
    trucking: formatMoney(estimate.truckingCents),
    tax: formatMoney(estimate.taxCents),
    total: formatMoney(estimate.totalCents),
  };
  const details = eventDetailRows(estimate.details);
  const willCall = willCallRows(estimate.details);
  const detailText = (rows: DetailRow[]) =>
    rows.map((r) => `  ${r.label}: ${r.value.replace(/\n/g, '\n    ')}`);
  const detailTable = (rows: DetailRow[]) => table(rows.map((r) => [{ text: r.label, bold: true }, r.value]));

  const text = [
    'Items',
    ...estimate.lines.map(
      (l) =>
        `  ${l.name} (${l.productId}): ${l.qty} × ${formatMoney(l.priceCents)} = ${formatMoney(l.totalCents)}`,
    ),
    '',
    `  Subtotal:     ${money.subtotal}`,
    `  Trucking fee: ${money.trucking}`,
    `  Sales tax:    ${money.tax}`,
    `  Total:        ${money.total}`,
    '',
    'Event details',
    ...detailText(details),
    ...(willCall.length > 0 ? ['', 'Will call', ...detailText(willCall)] : []),
  ];

  const totalRow = (label: string, amount: string, bold = false): Array<TableCell | string> => [
    { text: label, align: 'right', bold, span: 3 },
    { text: amount, align: 'right', bold },
  ];
  const html = [
    heading('Items'),
    table(
      [
        ...estimate.lines.map((l) => [
          `${l.name} (${l.productId})`,
          right(String(l.qty)),
          right(formatMoney(l.priceCents)),
          right(formatMoney(l.totalCents)),
        ]),
        totalRow('Subtotal', money.subtotal),
        totalRow('Trucking fee', money.trucking),
        totalRow('Sales tax', money.tax),
        totalRow('Total', money.total, true),
      ],
      ['Item', right('Qty'), right('Price'), right('Line total')],
    ),
    heading('Event details'),
    detailTable(details),
    ...(willCall.length > 0 ? [heading('Will call'), detailTable(willCall)] : []),
  ];
  return { text, html };
}

/** To the customer: their order request was received and is pending review. */
export function estimateReceivedEmail(brand: Brand, estimate: SubmittedEstimate): Email {
  const name = estimate.customer.displayName.trim();
  const greeting = name ? `Hello ${name},` : 'Hello,';
  const url = estimateUrl(brand, estimate.estimateId);
  const subject = headerText(
    `Your order request (estimate #${estimate.docNumber}) was received and is pending review`,
  );
  const intro = `Thank you for your order request. We received it as estimate #${estimate.docNumber}; it is pending review, and we will be in touch once we have reviewed it.`;
  const parts = summary(estimate);
  const text = [
    greeting,
    '',
    intro,
    '',
    ...parts.text,
    '',
    `See your order request at any time: ${url}`,
    '',
    `${brand.companyName} · ${brand.baseUrl}`,
  ].join('\n');
  const html = htmlDocument(brand, subject, [
    paragraph(escapeHtml(greeting)),
    paragraph(escapeHtml(intro)),
    ...parts.html,
    button(url, 'View your order request'),
    paragraph(`Or open this link: ${link(url)}`),
  ]);
  return { to: estimate.customer.email, subject, text, html };
}

/** To the staff: a new estimate waits for review, with who sent it. */
export function newEstimateStaffEmail(brand: Brand, staffEmail: string, estimate: SubmittedEstimate): Email {
  const { customer } = estimate;
  const who = customer.companyName?.trim() || customer.displayName.trim() || customer.email;
  const url = estimateUrl(brand, estimate.estimateId);
  const subject = headerText(`New estimate #${estimate.docNumber} from ${who} – pending review`);
  const intro = `A new order request was submitted as estimate #${estimate.docNumber} and is pending review.`;
  const customerRows: DetailRow[] = [
    { label: 'Name', value: customer.displayName.trim() },
    { label: 'Company', value: customer.companyName?.trim() ?? '' },
    { label: 'E-mail', value: customer.email },
  ].filter((r) => r.value !== '');
  const parts = summary(estimate);
  const text = [
    intro,
    '',
    'Customer',
    ...customerRows.map((r) => `  ${r.label}: ${r.value}`),
    '',
    ...parts.text,
    '',
    `Review the estimate: ${url}`,
    '',
    `${brand.companyName} · ${brand.baseUrl}`,
  ].join('\n');
  const html = htmlDocument(brand, subject, [
    paragraph(escapeHtml(intro)),
    heading('Customer'),
    table(customerRows.map((r) => [{ text: r.label, bold: true }, r.value])),
    ...parts.html,
    button(url, 'Review the estimate'),
    paragraph(`Or open this link: ${link(url)}`),
  ]);
  return { to: staffEmail, subject, text, html };
}
