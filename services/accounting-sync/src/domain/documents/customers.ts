import { qboDisplayName } from './names';
import type { CompanyRecord, CustomerRecord, QboAddress, QboCustomer, QboPhone, Ref } from './types';

/**
 * Spec §3 "Accounting-system customer record": a company is a top-level Customer; a site customer
 * is a Job under its company's Customer. Empty values are left out (never sent as '').
 */

/** A company → a top-level QuickBooks Customer. */
export function companyCustomerDocument(company: CompanyRecord): QboCustomer {
  const companyName = clean(company.name);
  const doc: QboCustomer = {
    DisplayName: firstName([company.displayName, company.name, company.id]),
  };
  if (companyName) doc.CompanyName = companyName;
  const phone = phoneOf(company.phone);
  if (phone) doc.PrimaryPhone = phone;
  const address = addressOf(company);
  if (address) doc.BillAddr = address;
  return doc;
}

/** A site customer → a Job (sub-customer) under `parent`, billed on its own. */
export function jobCustomerDocument(customer: CustomerRecord, parent: Ref): QboCustomer {
  const givenName = clean(customer.firstName);
  const familyName = clean(customer.lastName);
  const email = clean(customer.email);
  const companyName = clean(customer.ownCompany);
  const doc: QboCustomer = {
    DisplayName: firstName([
      customer.displayName,
      [customer.firstName, customer.lastName].filter(Boolean).join(' '),
      customer.email,
      customer.id,
    ]),
  };
  if (givenName) doc.GivenName = givenName;
  if (familyName) doc.FamilyName = familyName;
  doc.Active = customer.active;
  if (email) doc.PrimaryEmailAddr = { Address: email };
  if (companyName) doc.CompanyName = companyName;
  const phone = phoneOf(customer.phone);
  if (phone) doc.PrimaryPhone = phone;
  const address = addressOf(customer);
  if (address) doc.BillAddr = address;
  doc.Job = true;
  doc.ParentRef = parent;
  doc.BillWithParent = false;
  return doc;
}

/** The first candidate that is still a name once made QuickBooks-safe (DisplayName is required). */
function firstName(candidates: Array<string | undefined>): string {
  for (const candidate of candidates) {
    const name = qboDisplayName(candidate ?? '');
    if (name) return name;
  }
  return '';
}

function clean(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

function phoneOf(value: string | undefined): QboPhone | undefined {
  const phone = clean(value);
  return phone ? { FreeFormNumber: phone } : undefined;
}

function addressOf(r: {
  street?: string;
  city?: string;
  state?: string;
  zipCode?: string;
}): QboAddress | undefined {
  const address: QboAddress = {};
  const [line1, city, state, zip] = [clean(r.street), clean(r.city), clean(r.state), clean(r.zipCode)];
  if (line1) address.Line1 = line1;
  if (city) address.City = city;
  if (state) address.CountrySubDivisionCode = state;
  if (zip) address.PostalCode = zip;
  return Object.keys(address).length > 0 ? address : undefined;
}
