/** What the user service and accounting-sync answer for the users screens (spec orders §3, §7). */
import type {
  CompanyView,
  QboImportCompanyView,
  QboImportCustomerView,
  UserView,
} from '@decor/contracts/rules';

/** A site user as GET /user and GET /user/{id} show it (contracts' view; never the password). */
export type SiteUser = UserView;

/** A company as the user service answers it (contracts' view). */
export type Company = CompanyView;

/** The user tabs: who a list shows. */
export type UserKind = 'customer' | 'admin';

/** What a list's search box matches by prefix. */
export type UserSearchField = 'ownCompany' | 'displayName' | 'email';

export interface UserListArgs {
  kind: UserKind;
  /** Prefix typed in the search box (empty: everyone). */
  search: string;
  searchField: UserSearchField;
  /** Only the customers of this company (the company page). */
  companyId?: string;
}

/** POST /user: a customer under a parent company, or an admin (spec §3 forms). */
export interface NewUser {
  permissions: 'customer' | 'admin';
  email: string;
  firstName: string;
  lastName: string;
  phone?: string;
  displayName?: string;
  ownCompany?: string;
  CompanyId?: string;
  qboId?: string;
  /** Imports get the welcome e-mail only when asked; new users unless told not to. */
  sendWelcomeEmail?: boolean;
}

/** PUT /user/{id}: Suspend / Enable, or profile fields. */
export interface UserChanges {
  active?: boolean;
  firstName?: string;
  lastName?: string;
  displayName?: string;
  ownCompany?: string;
  email?: string;
  phone?: string;
}

/** GET /qbo/users: a QuickBooks company (top-level Customer) or customer (a Job), as contracts' views. */
export type QboCompany = QboImportCompanyView;
export type QboCustomer = QboImportCustomerView;

export interface QboUsers {
  companies: QboCompany[];
  customers: QboCustomer[];
}

/** What the import dialog asks GET /qbo/users for: a page of the entries matching. */
export interface QboUsersArgs {
  /** Words each found in a name, company name or e-mail (empty: everyone). */
  search: string;
  hideOnSite: boolean;
  offset: number;
}

/** A page of GET /qbo/users: companies first, then customers; `total` entries match in all. */
export interface QboUsersPage extends QboUsers {
  total: number;
  /** When the server last read QuickBooks (it lists from that copy for a few minutes). */
  listedAt: string | null;
}
