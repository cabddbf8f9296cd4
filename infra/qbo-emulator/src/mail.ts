/** The e-mail a send endpoint delivers: the document's lines and totals as HTML and text. */
import type { Transporter } from 'nodemailer';
import { escapeHtml } from './page';
import type { CompanyState, Rec } from './store';

export const MAIL_FROM = 'QuickBooks emulator <quickbooks@emulator.local>';

const money = (x: unknown) => `$${(typeof x === 'number' ? x : 0).toFixed(2)}`;

export async function mailDocument(
  mailer: Transporter,
  company: CompanyState,
  entity: 'Estimate' | 'Invoice',
  doc: Rec,
  to: string,
): Promise<void> {
  const lines = ((doc.Line as Rec[] | undefined) ?? []).filter((l) => l.DetailType === 'SalesItemLineDetail');
  const rows = lines.map((l) => {
    const d = (l.SalesItemLineDetail ?? {}) as Rec;
    const item = ((d.ItemRef ?? {}) as Rec).name ?? '';
    return {
      what: String(l.Description ?? item),
      item: String(item),
      qty: d.Qty === undefined ? '' : String(d.Qty),
      rate: money(d.UnitPrice),
      amount: money(l.Amount),
    };
  });
  const subtotal = (doc.Line as Rec[] | undefined)?.find(
    (l) => l.DetailType === 'SubTotalLineDetail',
  )?.Amount;
  const tax = (doc.TxnTaxDetail as Rec | undefined)?.TotalTax;
  const customer = ((doc.CustomerRef ?? {}) as Rec).name ?? '';
  const memo = ((doc.CustomerMemo ?? {}) as Rec).value;
  const dateLabel = entity === 'Estimate' ? 'Expires' : 'Due';
  const date = entity === 'Estimate' ? doc.ExpirationDate : doc.DueDate;
  const subject = `${entity} ${doc.DocNumber} from ${company.name}`;
  const text = [
    `Dear ${customer},`,
    '',
    `Here is your ${entity.toLowerCase()} ${doc.DocNumber} from ${company.name}, dated ${doc.TxnDate}.`,
    ...(date ? [`${dateLabel}: ${date}`] : []),
    '',
    ...rows.map((r) => `${r.what} (${r.item}) ${r.qty} × ${r.rate} = ${r.amount}`),
    '',
    `Subtotal: ${money(subtotal)}`,
    `Tax: ${money(tax)}`,
    `Total: ${money(doc.TotalAmt)}`,
    ...(entity === 'Invoice' ? [`Balance due: ${money(doc.Balance)}`] : []),
    ...(memo ? ['', String(memo)] : []),
    '',
    company.name,
  ].join('\n');
  const td = (s: string, right = false) =>
    `<td style="padding:4px 8px${right ? ';text-align:right' : ''}">${escapeHtml(s)}</td>`;
  const html = `<div style="font:14px sans-serif">
<h2>${escapeHtml(company.name)}</h2>
<p>Dear ${escapeHtml(customer)},</p>
<p>Here is your ${entity.toLowerCase()} <b>${escapeHtml(doc.DocNumber)}</b>, dated ${escapeHtml(doc.TxnDate)}.${date ? ` ${dateLabel}: ${escapeHtml(date)}.` : ''}</p>
<table style="border-collapse:collapse"><tr><th align="left">Description</th><th align="left">Item</th><th>Qty</th><th>Rate</th><th>Amount</th></tr>
${rows.map((r) => `<tr>${td(r.what)}${td(r.item)}${td(r.qty, true)}${td(r.rate, true)}${td(r.amount, true)}</tr>`).join('\n')}
<tr>${td('Subtotal')}<td colspan="3"></td>${td(money(subtotal), true)}</tr>
<tr>${td('Tax')}<td colspan="3"></td>${td(money(tax), true)}</tr>
<tr><td style="padding:4px 8px"><b>Total</b></td><td colspan="3"></td><td style="padding:4px 8px;text-align:right"><b>${escapeHtml(money(doc.TotalAmt))}</b></td></tr>
${entity === 'Invoice' ? `<tr>${td('Balance due')}<td colspan="3"></td>${td(money(doc.Balance), true)}</tr>` : ''}
</table>
${memo ? `<p>${escapeHtml(memo)}</p>` : ''}
<p style="color:#666">Sent by the QuickBooks emulator.</p></div>`;
  await mailer.sendMail({ from: MAIL_FROM, to, subject, text, html });
}
