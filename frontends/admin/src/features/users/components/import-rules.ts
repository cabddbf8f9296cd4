import type { NewCompany } from '@decor/contracts/rules';
import type { NewUser, QboCompany, QboCustomer } from '../api/types';
import { USERS_TEXTS } from '../texts';

/**
 * Why an entry cannot be imported (spec §5), or null when it can: the server's words when it says
 * so, else the rules applied here — a customer needs an e-mail and a parent company on the site, a
 * company needs a name.
 */
export function companyBlock(company: QboCompany): string | null {
  if (company.selectable === false) return company.reason ?? USERS_TEXTS.importAlready;
  if (company.onSite) return USERS_TEXTS.importAlready;
  if (!company.name?.trim()) return USERS_TEXTS.importNoName;
  return null;
}

export function customerBlock(customer: QboCustomer): string | null {
  if (customer.selectable === false) return customer.reason ?? USERS_TEXTS.importAlready;
  if (customer.onSite) return USERS_TEXTS.importAlready;
  if (!customer.email?.trim()) return USERS_TEXTS.importNoEmail;
  if (!customer.parentSiteId) return USERS_TEXTS.importParentFirst;
  return null;
}

const given = <K extends string>(key: K, value: string | null | undefined) =>
  value?.trim() ? ({ [key]: value.trim() } as Record<K, string>) : {};

/** POST /company for an imported company: its QuickBooks fields and id (adopted, not created again). */
export function importedCompanyBody(company: QboCompany): NewCompany {
  const name = (company.name ?? '').trim();
  return {
    name,
    displayName: name,
    ...given('street', company.street),
    ...given('city', company.city),
    ...given('state', company.state),
    ...given('zipCode', company.zipCode),
    ...given('phone', company.phone),
    qboId: company.qboId,
  };
}

/** POST /user for an imported customer, under its parent company on the site. */
export function importedCustomerBody(customer: QboCustomer, sendWelcomeEmail: boolean): NewUser {
  return {
    permissions: 'customer',
    CompanyId: customer.parentSiteId ?? '',
    ...given('ownCompany', customer.company ?? customer.parentName),
    ...given('displayName', customer.displayName),
    email: (customer.email ?? '').trim(),
    firstName: customer.firstName?.trim() ?? '',
    lastName: customer.lastName?.trim() ?? '',
    ...given('phone', customer.phone),
    qboId: customer.qboId,
    sendWelcomeEmail,
  };
}
