/**
 * What a write does to each entity (notes §3–§4): validation, the fields Intuit fills in,
 * SyncToken checks, delete, void and the state a send leaves.
 */
import { faults } from './faults';
import { FIELDS } from './fields';
import { type CompanyState, type EntityName, localDate, qboTime, type Rec } from './store';

/** The demo company's sales tax rate (8.1 %), applied to lines with TaxCodeRef 'TAX'. */
export const TAX_RATE = 0.081;
export const FIRST_DOC_NUMBER = 1001;

type Ref = { value: string; name?: string };

const isObj = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined =>
  typeof x === 'string' ? x : typeof x === 'number' ? String(x) : undefined;
const num = (x: unknown): number | undefined => {
  const n = typeof x === 'string' && x.trim() !== '' ? Number(x) : x;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};
export const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
const refValue = (x: unknown): string | undefined => (isObj(x) ? str(x.value) : undefined);
const lower = (s: string) => s.toLowerCase();

function checkFields(entity: EntityName, body: Rec): void {
  for (const key of Object.keys(body)) if (!FIELDS[entity].has(key)) throw faults.unknownProperty(key);
}

function stamp(rec: Rec, created: boolean): void {
  const now = qboTime();
  const meta = isObj(rec.MetaData) ? rec.MetaData : {};
  rec.MetaData = { CreateTime: created ? now : (str(meta.CreateTime) ?? now), LastUpdatedTime: now };
}

/** Returns a stored record or throws 610. */
export function getRecord(company: CompanyState, entity: EntityName, id: string): Rec {
  const rec = company.records[entity][id];
  if (!rec) throw faults.notFound(entity, id);
  return rec;
}

function nameHasBadChars(name: string): boolean {
  return /[:\t\n\r]/.test(name);
}

// ---------------------------------------------------------------- Customer

function normalizeCustomer(company: CompanyState, rec: Rec): void {
  const parts = ['Title', 'GivenName', 'MiddleName', 'FamilyName', 'Suffix']
    .map((k) => str(rec[k])?.trim())
    .filter(Boolean);
  let display = str(rec.DisplayName)?.trim();
  if (!display) display = parts.join(' ') || str(rec.CompanyName)?.trim();
  if (!display) throw faults.required('DisplayName');
  if (nameHasBadChars(display)) {
    throw faults.business(
      'The name supplied contains invalid characters (colon, tab or newline).',
      'DisplayName',
    );
  }
  rec.DisplayName = display;
  if (str(rec.PrintOnCheckName) === undefined) rec.PrintOnCheckName = str(rec.CompanyName) ?? display;
  const clash = Object.values(company.records.Customer).find(
    (c) => c.Id !== rec.Id && lower(str(c.DisplayName) ?? '') === lower(display),
  );
  if (clash) throw faults.duplicateName();

  const parentId = refValue(rec.ParentRef);
  if (rec.Job === true && !parentId) throw faults.required('ParentRef');
  if (parentId) {
    const parent = company.records.Customer[parentId];
    if (!parent) throw faults.invalidReference('Customer', parentId, 'ParentRef');
    if (parentId === rec.Id) throw faults.business('A customer cannot be its own parent.', 'ParentRef');
    rec.Job = true;
    rec.ParentRef = { value: parentId };
    rec.Level = (num(parent.Level) ?? 0) + 1;
    rec.FullyQualifiedName = `${str(parent.FullyQualifiedName)}:${display}`;
    if (rec.BillWithParent === undefined) rec.BillWithParent = false;
  } else {
    rec.Job = false;
    delete rec.ParentRef;
    delete rec.Level;
    rec.BillWithParent = false;
    rec.FullyQualifiedName = display;
  }
  if (rec.Active === undefined) rec.Active = true;
  if (rec.Taxable === undefined) rec.Taxable = true;
  rec.Balance = num(rec.Balance) ?? 0;
  rec.BalanceWithJobs = num(rec.BalanceWithJobs) ?? 0;
  rec.CurrencyRef ??= { value: 'USD', name: 'United States Dollar' };
  rec.PreferredDeliveryMethod ??= 'Print';
  rec.IsProject ??= false;
}

/** A renamed parent renames its children's FullyQualifiedName (and theirs, recursively). */
function refreshChildren(company: CompanyState, entity: 'Customer' | 'Item', parent: Rec): void {
  const nameKey = entity === 'Customer' ? 'DisplayName' : 'Name';
  for (const child of Object.values(company.records[entity])) {
    if (refValue(child.ParentRef) !== parent.Id) continue;
    child.FullyQualifiedName = `${str(parent.FullyQualifiedName)}:${str(child[nameKey])}`;
    child.Level = (num(parent.Level) ?? 0) + 1;
    refreshChildren(company, entity, child);
  }
}

// ---------------------------------------------------------------- Item

const ITEM_TYPES = new Set(['Service', 'NonInventory', 'Inventory', 'Category', 'Group', 'Bundle']);

function normalizeItem(company: CompanyState, rec: Rec): void {
  const name = str(rec.Name)?.trim();
  if (!name) throw faults.required('Name');
  if (nameHasBadChars(name)) {
    throw faults.business('The name supplied contains invalid characters (colon, tab or newline).', 'Name');
  }
  rec.Name = name;
  const type = str(rec.Type) ?? 'NonInventory';
  if (!ITEM_TYPES.has(type)) throw faults.business(`Invalid Type ${type}.`, 'Type');
  rec.Type = type;
  if (type === 'Inventory') {
    for (const f of ['IncomeAccountRef', 'ExpenseAccountRef', 'AssetAccountRef', 'InvStartDate']) {
      if (rec[f] === undefined) throw faults.required(f);
    }
  }
  const parentId = refValue(rec.ParentRef);
  if (rec.SubItem === true && !parentId) throw faults.required('ParentRef');
  if (parentId) {
    const parent = company.records.Item[parentId];
    if (!parent) throw faults.invalidReference('Item', parentId, 'ParentRef');
    if (type === 'Category' && parent.Type !== 'Category') {
      throw faults.business('A category can only be a sub-category of a category.', 'ParentRef');
    }
    rec.SubItem = true;
    rec.ParentRef = { value: parentId, name: str(parent.Name) };
    rec.Level = (num(parent.Level) ?? 0) + 1;
    rec.FullyQualifiedName = `${str(parent.FullyQualifiedName)}:${name}`;
  } else {
    rec.SubItem = false;
    delete rec.ParentRef;
    delete rec.Level;
    rec.FullyQualifiedName = name;
  }
  const fqn = lower(str(rec.FullyQualifiedName) ?? '');
  const clash = Object.values(company.records.Item).find(
    (i) => i.Id !== rec.Id && lower(str(i.FullyQualifiedName) ?? '') === fqn,
  );
  if (clash) throw faults.duplicateName();
  if (type === 'Category') {
    // Categories carry no price, accounts or tax (item-hierarchies-using-categories).
    for (const f of ['UnitPrice', 'IncomeAccountRef', 'ExpenseAccountRef', 'AssetAccountRef', 'Taxable']) {
      delete rec[f];
    }
  } else {
    rec.UnitPrice = num(rec.UnitPrice) ?? 0;
    rec.Taxable ??= false;
    rec.TrackQtyOnHand ??= false;
    if (isObj(rec.IncomeAccountRef)) {
      rec.IncomeAccountRef = { value: refValue(rec.IncomeAccountRef), name: 'Sales of Product Income' };
    }
  }
  if (rec.Active === undefined) rec.Active = true;
}

// ---------------------------------------------------------------- Estimate / Invoice

function nextDocNumber(company: CompanyState, entity: EntityName): string {
  let max = FIRST_DOC_NUMBER - 1;
  for (const r of Object.values(company.records[entity])) {
    const n = Number(r.DocNumber);
    if (Number.isInteger(n) && n > max) max = n;
  }
  return String(max + 1);
}

interface TxnOptions {
  created: boolean;
  allowDuplicateDocNum: boolean;
  /** The TxnTaxDetail of the request, if it sent one. */
  requestTax: unknown;
  /** False for a sparse update that sent no Line and no TxnTaxDetail: the totals stay. */
  recompute: boolean;
}

function normalizeTxn(
  company: CompanyState,
  entity: 'Estimate' | 'Invoice' | 'RefundReceipt',
  rec: Rec,
  o: TxnOptions,
): void {
  const customerId = refValue(rec.CustomerRef);
  if (!customerId) throw faults.required('CustomerRef');
  const customer = company.records.Customer[customerId];
  if (!customer) throw faults.invalidReference('Customer', customerId, 'CustomerRef');
  rec.CustomerRef = { value: customerId, name: str(customer.DisplayName) };
  if (!Array.isArray(rec.Line)) throw faults.required('Line');

  const docNumber = str(rec.DocNumber);
  if (docNumber === undefined || docNumber === '') rec.DocNumber = nextDocNumber(company, entity);
  else if (!o.allowDuplicateDocNum) {
    const clash = Object.values(company.records[entity]).find(
      (r) => r.Id !== rec.Id && r.DocNumber === docNumber,
    );
    if (clash) throw faults.duplicateDocNumber(docNumber);
  }
  rec.TxnDate = str(rec.TxnDate) ?? localDate();
  if (o.created) {
    if (customer.BillAddr && rec.BillAddr === undefined) rec.BillAddr = customer.BillAddr;
    if (customer.ShipAddr && rec.ShipAddr === undefined) rec.ShipAddr = customer.ShipAddr;
    rec.PrintStatus ??= 'NeedToPrint';
    rec.EmailStatus ??= 'NotSet';
    if (entity === 'Estimate') rec.TxnStatus ??= 'Pending';
  }
  if (entity === 'Invoice' && rec.DueDate === undefined) {
    rec.DueDate = localDate(new Date(`${str(rec.TxnDate)}T12:00:00`), 30);
  }
  if (entity === 'Estimate') {
    const status = str(rec.TxnStatus);
    if (status && !['Pending', 'Accepted', 'Closed', 'Rejected'].includes(status)) {
      throw faults.business(`Invalid TxnStatus ${status}.`, 'TxnStatus');
    }
  }
  normalizeCustomFields(rec);
  if (
    isObj(rec.BillEmail) &&
    str(rec.BillEmail.Address) &&
    !looksLikeEmail(str(rec.BillEmail.Address) ?? '')
  ) {
    throw faults.business('Invalid email address format', 'BillEmail');
  }
  if (!o.recompute) return;

  let subtotal = 0;
  let taxable = 0;
  const lines: Rec[] = [];
  for (const raw of rec.Line) {
    if (!isObj(raw)) throw faults.required('Line.DetailType');
    const type = str(raw.DetailType);
    if (type === 'SubTotalLineDetail') continue; // recomputed below
    if (type === 'DescriptionOnly') {
      lines.push({ ...raw, Amount: 0 });
      continue;
    }
    if (type !== 'SalesItemLineDetail') throw faults.required('Line.DetailType');
    const detail = isObj(raw.SalesItemLineDetail) ? { ...raw.SalesItemLineDetail } : {};
    const itemId = refValue(detail.ItemRef);
    if (!itemId) throw faults.required('Line.SalesItemLineDetail.ItemRef');
    const item = company.records.Item[itemId];
    if (!item) throw faults.invalidReference('Item', itemId, 'Line.SalesItemLineDetail.ItemRef');
    if (item.Type === 'Category') {
      throw faults.business(`Item ${itemId} is a category; only items can be sold.`, 'ItemRef');
    }
    detail.ItemRef = { value: itemId, name: str(item.Name) };
    const qty = num(detail.Qty);
    let unitPrice = num(detail.UnitPrice);
    let amount = num(raw.Amount);
    if (unitPrice === undefined && amount !== undefined && qty) unitPrice = round2(amount / qty);
    if (unitPrice === undefined) unitPrice = num(item.UnitPrice) ?? 0;
    if (amount === undefined) amount = round2((qty ?? 1) * unitPrice);
    if (qty !== undefined && Math.abs(round2(qty * unitPrice) - amount) > 0.005) {
      throw faults.business(
        `Amount is not equal to UnitPrice * Qty. Supplied value:${amount}`,
        'Line.Amount',
      );
    }
    if (qty !== undefined) detail.Qty = qty;
    detail.UnitPrice = unitPrice;
    detail.TaxCodeRef = { value: refValue(detail.TaxCodeRef) ?? 'NON' };
    amount = round2(amount);
    subtotal += amount;
    if (refValue(detail.TaxCodeRef) === 'TAX') taxable += amount;
    lines.push({ ...raw, Amount: amount, DetailType: type, SalesItemLineDetail: detail });
  }
  lines.forEach((line, i) => {
    line.Id = String(i + 1);
    line.LineNum = i + 1;
  });
  subtotal = round2(subtotal);
  lines.push({ Amount: subtotal, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} });
  rec.Line = lines;

  const sentTax = isObj(o.requestTax) ? num(o.requestTax.TotalTax) : undefined;
  const totalTax = round2(sentTax ?? taxable * TAX_RATE);
  rec.TxnTaxDetail =
    totalTax > 0
      ? {
          TxnTaxCodeRef: { value: '3' },
          TotalTax: totalTax,
          TaxLine: [
            {
              Amount: totalTax,
              DetailType: 'TaxLineDetail',
              TaxLineDetail: {
                TaxRateRef: { value: '3' },
                PercentBased: true,
                TaxPercent: TAX_RATE * 100,
                NetAmountTaxable: round2(taxable),
              },
            },
          ],
        }
      : { TotalTax: 0 };
  const totalAmt = round2(subtotal + totalTax);
  rec.TotalAmt = totalAmt;
  if (entity === 'Invoice') rec.Balance = round2(totalAmt - paidOn(company, str(rec.Id) ?? ''));
  if (entity === 'RefundReceipt') rec.Balance = 0;
}

function normalizeCustomFields(rec: Rec): void {
  if (rec.CustomField === undefined) {
    rec.CustomField = [];
    return;
  }
  if (!Array.isArray(rec.CustomField)) throw faults.business('CustomField must be a list.', 'CustomField');
  if (rec.CustomField.length > 3) {
    throw faults.business(
      'At most 3 custom fields of type String can be used through the API.',
      'CustomField',
    );
  }
  rec.CustomField = rec.CustomField.map((f: unknown) => {
    if (!isObj(f) || !str(f.DefinitionId)) throw faults.required('CustomField.DefinitionId');
    return {
      DefinitionId: str(f.DefinitionId),
      ...(str(f.Name) !== undefined ? { Name: str(f.Name) } : {}),
      Type: 'StringType',
      StringValue: str(f.StringValue) ?? '',
    };
  });
}

export const looksLikeEmail = (s: string) => /^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$/.test(s);

/** An invoice linked to estimates closes them and links them back. */
function linkEstimates(company: CompanyState, invoice: Rec): void {
  if (invoice.LinkedTxn === undefined) return;
  if (!Array.isArray(invoice.LinkedTxn)) throw faults.business('LinkedTxn must be a list.', 'LinkedTxn');
  const links: Rec[] = [];
  for (const l of invoice.LinkedTxn) {
    const id = isObj(l) ? str(l.TxnId) : undefined;
    if (!isObj(l) || !id) throw faults.required('LinkedTxn.TxnId');
    if (str(l.TxnType) !== 'Estimate') {
      links.push(l);
      continue;
    }
    if (!company.records.Estimate[id]) throw faults.invalidReference('Estimate', id, 'LinkedTxn');
    links.push({ TxnId: id, TxnType: 'Estimate' });
  }
  invoice.LinkedTxn = links;
}

function backLink(company: CompanyState, invoice: Rec): void {
  for (const l of (invoice.LinkedTxn as Rec[] | undefined) ?? []) {
    if (l.TxnType !== 'Estimate') continue;
    const est = company.records.Estimate[str(l.TxnId) ?? ''];
    if (!est) continue;
    const back = ((est.LinkedTxn as Rec[] | undefined) ?? []).filter((x) => x.TxnId !== invoice.Id);
    est.LinkedTxn = [...back, { TxnId: invoice.Id, TxnType: 'Invoice' }];
    est.TxnStatus = 'Closed';
    bump(est);
  }
}

function bump(rec: Rec): void {
  rec.SyncToken = String((Number(rec.SyncToken) || 0) + 1);
  stamp(rec, false);
}

// ---------------------------------------------------------------- Payment

const linkedInvoices = (payment: Rec): Array<{ id: string; amount: number }> =>
  ((payment.Line as Rec[] | undefined) ?? []).flatMap((line) =>
    ((line.LinkedTxn as Rec[] | undefined) ?? [])
      .filter((l) => l.TxnType === 'Invoice')
      .map((l) => ({ id: str(l.TxnId) ?? '', amount: num(line.Amount) ?? 0 })),
  );

/** What the payments received so far apply to an invoice. */
function paidOn(company: CompanyState, invoiceId: string): number {
  let paid = 0;
  for (const p of Object.values(company.records.Payment ?? {})) {
    for (const l of linkedInvoices(p)) if (l.id === invoiceId) paid += l.amount;
  }
  return round2(paid);
}

/**
 * A payment received: TotalAmt is required; each line applies an amount to one invoice of the same
 * customer (Line[].LinkedTxn TxnType 'Invoice'), never more than its open balance; what no line
 * applies stays unapplied (UnappliedAmt). The invoices' Balance drops by what is applied.
 */
function normalizePayment(company: CompanyState, rec: Rec): void {
  const customerId = refValue(rec.CustomerRef);
  if (!customerId) throw faults.required('CustomerRef');
  const customer = company.records.Customer[customerId];
  if (!customer) throw faults.invalidReference('Customer', customerId, 'CustomerRef');
  rec.CustomerRef = { value: customerId, name: str(customer.DisplayName) };
  const total = num(rec.TotalAmt);
  if (total === undefined) throw faults.required('TotalAmt');
  if (total < 0) throw faults.business('TotalAmt cannot be negative.', 'TotalAmt');
  const totalAmt = round2(total);
  rec.TotalAmt = totalAmt;
  if (rec.Line !== undefined && !Array.isArray(rec.Line))
    throw faults.business('Line must be a list.', 'Line');
  const lines: Rec[] = [];
  let applied = 0;
  for (const raw of (rec.Line as unknown[] | undefined) ?? []) {
    if (!isObj(raw)) throw faults.required('Line.Amount');
    const amount = num(raw.Amount);
    if (amount === undefined) throw faults.required('Line.Amount');
    const links = Array.isArray(raw.LinkedTxn) ? raw.LinkedTxn : [];
    if (links.length === 0) throw faults.required('Line.LinkedTxn');
    for (const l of links) {
      const id = isObj(l) ? str(l.TxnId) : undefined;
      if (!isObj(l) || !id) throw faults.required('LinkedTxn.TxnId');
      if (str(l.TxnType) !== 'Invoice')
        throw faults.business('A payment line applies to an invoice.', 'LinkedTxn');
      const invoice = company.records.Invoice[id];
      if (!invoice) throw faults.invalidReference('Invoice', id, 'LinkedTxn');
      if (refValue(invoice.CustomerRef) !== customerId) {
        throw faults.business(`Invoice ${id} belongs to another customer.`, 'LinkedTxn');
      }
      const open = round2((num(invoice.TotalAmt) ?? 0) - paidOn(company, id) + paidByThis(company, rec, id));
      if (round2(amount) > open) {
        throw faults.business(`The payment exceeds invoice ${id}'s open balance of ${open}.`, 'Line.Amount');
      }
    }
    applied += amount;
    lines.push({
      Amount: round2(amount),
      LinkedTxn: links.map((l: Rec) => ({ TxnId: str(l.TxnId), TxnType: 'Invoice' })),
    });
  }
  if (round2(applied) > totalAmt) throw faults.business('The lines apply more than TotalAmt.', 'Line');
  rec.Line = lines;
  rec.UnappliedAmt = round2(totalAmt - applied);
  rec.TxnDate = str(rec.TxnDate) ?? localDate();
}

/** What the stored version of `rec` (an update) already applies to invoice `id`. */
function paidByThis(company: CompanyState, rec: Rec, id: string): number {
  const stored = company.records.Payment[str(rec.Id) ?? ''];
  return stored
    ? linkedInvoices(stored)
        .filter((l) => l.id === id)
        .reduce((s, l) => s + l.amount, 0)
    : 0;
}

/** The invoices a payment touches (before and after a write) show their new open balance. */
function rebalance(company: CompanyState, ...payments: Array<Rec | undefined>): void {
  const ids = new Set(payments.flatMap((p) => (p ? linkedInvoices(p).map((l) => l.id) : [])));
  for (const id of ids) {
    const invoice = company.records.Invoice[id];
    if (!invoice || str(invoice.PrivateNote)?.startsWith('Voided')) continue;
    invoice.Balance = round2((num(invoice.TotalAmt) ?? 0) - paidOn(company, id));
    bump(invoice);
  }
}

// ---------------------------------------------------------------- writes

export interface WriteOptions {
  allowDuplicateDocNum?: boolean;
}

function normalize(company: CompanyState, entity: EntityName, rec: Rec, o: TxnOptions): void {
  if (entity === 'Customer') normalizeCustomer(company, rec);
  else if (entity === 'Item') normalizeItem(company, rec);
  else if (entity === 'Payment') normalizePayment(company, rec);
  else {
    if (entity === 'Invoice') linkEstimates(company, rec);
    normalizeTxn(company, entity, rec, o);
  }
}

export function createRecord(
  company: CompanyState,
  entity: EntityName,
  body: Rec,
  opts: WriteOptions = {},
): Rec {
  checkFields(entity, body);
  const rec: Rec = { ...structuredClone(body) };
  for (const k of ['Id', 'SyncToken', 'MetaData', 'domain', 'sparse', 'status', 'FullyQualifiedName']) {
    delete rec[k];
  }
  if (entity === 'Estimate' || entity === 'Invoice' || entity === 'RefundReceipt') {
    delete rec.TotalAmt;
    delete rec.Balance;
    delete rec.DeliveryInfo;
  }
  const id = String(company.nextId[entity]);
  rec.Id = id;
  normalize(company, entity, rec, {
    created: true,
    allowDuplicateDocNum: !!opts.allowDuplicateDocNum,
    requestTax: body.TxnTaxDetail,
    recompute: true,
  });
  company.nextId[entity] += 1;
  const stored = { ...rec, domain: 'QBO', sparse: false, Id: id, SyncToken: '0' };
  stamp(stored, true);
  company.records[entity][id] = stored;
  if (entity === 'Invoice') backLink(company, stored);
  if (entity === 'Payment') rebalance(company, stored);
  return stored;
}

function checkSyncToken(body: Rec, current: Rec): void {
  const token = str(body.SyncToken);
  if (token === undefined || token === '') throw faults.required('SyncToken');
  if (token !== str(current.SyncToken)) throw faults.stale();
}

export function updateRecord(
  company: CompanyState,
  entity: EntityName,
  body: Rec,
  opts: WriteOptions = {},
): Rec {
  checkFields(entity, body);
  const id = str(body.Id);
  if (!id) throw faults.required('Id');
  const current = getRecord(company, entity, id);
  checkSyncToken(body, current);
  const sparse = body.sparse === true || body.sparse === 'true';
  const sent = structuredClone(body);
  for (const k of [
    'Id',
    'SyncToken',
    'MetaData',
    'domain',
    'sparse',
    'status',
    'FullyQualifiedName',
    'Level',
  ]) {
    delete sent[k];
  }
  // Sparse: only the fields sent change (Line replaces all lines). Full: omitted fields are cleared.
  const base: Rec = sparse ? structuredClone(current) : {};
  if (!sparse && (entity === 'Estimate' || entity === 'Invoice' || entity === 'RefundReceipt')) {
    for (const k of ['DocNumber', 'TxnDate', 'EmailStatus', 'PrintStatus', 'TxnStatus', 'DeliveryInfo']) {
      if (current[k] !== undefined) base[k] = current[k];
    }
  }
  const rec: Rec = { ...base, ...sent, Id: id };
  if (!sparse && entity !== 'Estimate' && entity !== 'Invoice' && rec.Active === undefined) rec.Active = true;
  const recompute = !sparse || body.Line !== undefined || body.TxnTaxDetail !== undefined;
  normalize(company, entity, rec, {
    created: false,
    allowDuplicateDocNum: !!opts.allowDuplicateDocNum,
    requestTax: body.TxnTaxDetail,
    recompute,
  });
  const stored = {
    ...rec,
    domain: 'QBO',
    sparse: false,
    Id: id,
    SyncToken: current.SyncToken,
    MetaData: current.MetaData,
  };
  bump(stored);
  company.records[entity][id] = stored;
  if (entity === 'Customer' || entity === 'Item') refreshChildren(company, entity, stored);
  if (entity === 'Invoice') backLink(company, stored);
  if (entity === 'Payment') rebalance(company, current, stored);
  return stored;
}

export function deleteRecord(company: CompanyState, entity: EntityName, body: Rec): Rec {
  if (entity === 'Customer' || entity === 'Item') throw faults.unsupported('Delete');
  const id = str(body.Id);
  if (!id) throw faults.required('Id');
  const current = getRecord(company, entity, id);
  checkSyncToken(body, current);
  delete company.records[entity][id];
  if (entity === 'Payment') rebalance(company, current);
  return { domain: 'QBO', status: 'Deleted', Id: id };
}

export function voidRecord(company: CompanyState, entity: EntityName, body: Rec): Rec {
  if (entity !== 'Invoice') throw faults.unsupported('Void');
  const id = str(body.Id);
  if (!id) throw faults.required('Id');
  const current = getRecord(company, entity, id);
  checkSyncToken(body, current);
  const note = str(current.PrivateNote);
  current.PrivateNote = note ? `Voided - ${note}` : 'Voided';
  for (const line of (current.Line as Rec[] | undefined) ?? []) line.Amount = 0;
  current.TotalAmt = 0;
  current.Balance = 0;
  current.TxnTaxDetail = { TotalTax: 0 };
  bump(current);
  return current;
}

/** The state a successful send leaves (EmailSent, DeliveryInfo, BillEmail = the address used). */
export function markSent(rec: Rec, address: string): void {
  rec.BillEmail = { Address: address };
  rec.EmailStatus = 'EmailSent';
  rec.DeliveryInfo = { DeliveryType: 'Email', DeliveryTime: qboTime() };
  bump(rec);
}

/** Where a send goes: ?sendTo=, else the document's BillEmail, else the customer's e-mail. */
export function sendAddress(company: CompanyState, rec: Rec, sendTo: string | undefined): string {
  const customer = company.records.Customer[refValue(rec.CustomerRef) ?? ''];
  const fromDoc = isObj(rec.BillEmail) ? str(rec.BillEmail.Address) : undefined;
  const fromCustomer =
    customer && isObj(customer.PrimaryEmailAddr) ? str(customer.PrimaryEmailAddr.Address) : undefined;
  const address = (sendTo || fromDoc || fromCustomer)?.trim();
  if (!address) throw faults.business('Please specify an email address.', 'BillEmail');
  if (!looksLikeEmail(address)) throw faults.business(`Invalid email address: ${address}`, 'sendTo');
  return address;
}

export function companyInfo(company: CompanyState): Rec {
  return {
    CompanyName: company.name,
    LegalName: company.name,
    CompanyAddr: {
      Id: '1',
      Line1: '2700 Coast Ave',
      City: 'Mountain View',
      CountrySubDivisionCode: 'CA',
      PostalCode: '94043',
      Country: 'US',
    },
    CustomerCommunicationAddr: {
      Id: '1',
      Line1: '2700 Coast Ave',
      City: 'Mountain View',
      CountrySubDivisionCode: 'CA',
      PostalCode: '94043',
    },
    LegalAddr: {
      Id: '1',
      Line1: '2700 Coast Ave',
      City: 'Mountain View',
      CountrySubDivisionCode: 'CA',
      PostalCode: '94043',
    },
    PrimaryPhone: { FreeFormNumber: '(650) 555-0100' },
    CompanyStartDate: company.createdAt.slice(0, 10),
    FiscalYearStartMonth: 'January',
    Country: 'US',
    Email: { Address: 'quickbooks@emulator.local' },
    WebAddr: {},
    SupportedLanguages: 'en',
    NameValue: [
      { Name: 'NeoEnabled', Value: 'true' },
      { Name: 'IndustryType', Value: 'Party & Event Rentals' },
    ],
    domain: 'QBO',
    sparse: false,
    Id: '1',
    SyncToken: '0',
    MetaData: {
      CreateTime: qboTime(new Date(company.createdAt)),
      LastUpdatedTime: qboTime(new Date(company.createdAt)),
    },
  };
}

export type { Ref };
