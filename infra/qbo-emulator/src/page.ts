/** The emulator's HTML: the consent page of the authorize step and the read-only records page. */
import type { CompanyState, Rec } from './store';

export const escapeHtml = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const STYLE = `<style>body{font:14px system-ui;margin:2em;color:#222}td,th{padding:4px 10px;text-align:left;border-bottom:1px solid #ddd}
.card{max-width:460px;margin:4em auto;padding:2em;border:1px solid #ddd;border-radius:8px}
button{background:#2ca01c;color:#fff;border:0;padding:.7em 1.4em;border-radius:4px;font-size:1em;cursor:pointer}
select{font-size:1em;padding:.3em;width:100%;margin:.5em 0 1.5em}h2{margin-top:2em}.muted{color:#666}</style>`;

export interface ConsentParams {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
}

export function consentPage(p: ConsentParams, companies: CompanyState[]): string {
  const cancel = new URL(p.redirectUri);
  cancel.searchParams.set('error', 'access_denied');
  if (p.state) cancel.searchParams.set('state', p.state);
  const options = companies
    .map(
      (c) =>
        `<option value="${escapeHtml(c.realmId)}">${escapeHtml(c.name)} (${escapeHtml(c.realmId)})</option>`,
    )
    .join('');
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return `<!doctype html><meta charset="utf-8"><title>Connect Decor Rentals to QuickBooks</title>${STYLE}
<div class="card"><h1>Connect Decor Rentals to QuickBooks</h1>
<p>The app <b>${escapeHtml(p.clientId)}</b> asks to access your QuickBooks company data.</p>
<p class="muted">Scope: ${escapeHtml(p.scope)}<br>QuickBooks emulator — no real Intuit account is involved.</p>
<form method="post" action="/connect/oauth2/consent">
${hidden('client_id', p.clientId)}${hidden('redirect_uri', p.redirectUri)}${hidden('state', p.state)}${hidden('scope', p.scope)}
<label for="realmId">Company</label><select id="realmId" name="realmId">${options}</select>
<button type="submit">Connect</button> &nbsp; <a href="${escapeHtml(cancel.toString())}">Cancel</a>
</form></div>`;
}

export function errorPage(title: string, detail: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title>${STYLE}
<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></div>`;
}

const money = (x: unknown) => (typeof x === 'number' ? x.toFixed(2) : '');
const ref = (x: unknown) => (x && typeof x === 'object' ? ((x as Rec).name ?? (x as Rec).value) : '');

function table(headers: string[], rows: unknown[][]): string {
  if (rows.length === 0) return '<p class="muted">none</p>';
  const th = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table><tr>${th}</tr>${tr}</table>`;
}

export function recordsPage(company: CompanyState, all: CompanyState[]): string {
  const byId = (records: Record<string, Rec>) =>
    Object.values(records).sort((a, b) => Number(a.Id) - Number(b.Id));
  const r = company.records;
  const links = all
    .map((c) =>
      c.realmId === company.realmId
        ? `<b>${escapeHtml(c.name)}</b>`
        : `<a href="/?realmId=${encodeURIComponent(c.realmId)}">${escapeHtml(c.name)}</a>`,
    )
    .join(' · ');
  const active = (x: Rec) => (x.Active === false ? 'inactive' : 'active');
  const email = (x: unknown) => (x && typeof x === 'object' ? (x as Rec).Address : '');
  return `<!doctype html><meta charset="utf-8"><title>QuickBooks emulator</title>${STYLE}
<h1>QuickBooks emulator — ${escapeHtml(company.name)}</h1>
<p class="muted">Realm ${escapeHtml(company.realmId)}. Companies: ${links}</p>
<h2>Customers (${Object.keys(r.Customer).length})</h2>
${table(
  ['Id', 'DisplayName', 'FullyQualifiedName', 'E-mail', 'Status', 'SyncToken'],
  byId(r.Customer).map((c) => [
    c.Id,
    c.DisplayName,
    c.FullyQualifiedName,
    email(c.PrimaryEmailAddr),
    active(c),
    c.SyncToken,
  ]),
)}
<h2>Items (${Object.keys(r.Item).length})</h2>
${table(
  ['Id', 'FullyQualifiedName', 'Type', 'UnitPrice', 'Status', 'SyncToken'],
  byId(r.Item).map((i) => [i.Id, i.FullyQualifiedName, i.Type, money(i.UnitPrice), active(i), i.SyncToken]),
)}
<h2>Estimates (${Object.keys(r.Estimate).length})</h2>
${table(
  ['Id', 'DocNumber', 'Customer', 'TxnDate', 'TxnStatus', 'Tax', 'TotalAmt', 'EmailStatus', 'SyncToken'],
  byId(r.Estimate).map((e) => [
    e.Id,
    e.DocNumber,
    ref(e.CustomerRef),
    e.TxnDate,
    e.TxnStatus,
    money((e.TxnTaxDetail as Rec | undefined)?.TotalTax),
    money(e.TotalAmt),
    e.EmailStatus,
    e.SyncToken,
  ]),
)}
<h2>Invoices (${Object.keys(r.Invoice).length})</h2>
${table(
  [
    'Id',
    'DocNumber',
    'Customer',
    'TxnDate',
    'DueDate',
    'TotalAmt',
    'Balance',
    'EmailStatus',
    'Note',
    'SyncToken',
  ],
  byId(r.Invoice).map((i) => [
    i.Id,
    i.DocNumber,
    ref(i.CustomerRef),
    i.TxnDate,
    i.DueDate,
    money(i.TotalAmt),
    money(i.Balance),
    i.EmailStatus,
    i.PrivateNote,
    i.SyncToken,
  ]),
)}
<p class="muted">Read-only. JSON of every record: <code>GET /__emulator/realms/&lt;realmId&gt;/records/&lt;Entity&gt;</code></p>`;
}
