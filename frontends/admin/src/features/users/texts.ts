import { IMPORT_TEXTS } from '@decor/contracts/rules';
import { FALLBACK_MESSAGE, isApiError } from '@decor/web-core';

/** Every text of the users screens; the quoted ones are spec orders §4, §5 and §8 word for word. */
export const USERS_TEXTS = {
  title: 'Users',
  createUser: 'Create User',
  importUser: 'Import User',
  customers: 'Customers',
  companies: 'Companies',
  admins: 'Admins',
  searchCustomers: 'Search customers by company',
  searchCompanies: 'Search companies by name',
  searchAdmins: 'Search admins by email',
  searchCompanyCustomers: 'Search customers by display name',
  loadMore: 'Load more',
  nothingFound: 'Nothing was found',
  active: 'Active',
  suspended: 'Suspended',

  // spec §8
  usersError: 'An error occurred while retrieving the users',
  companiesError: 'An error occurred while retrieving the companies',
  userError: 'An error occurred while retrieving the user',
  companyError: 'An error occurred while retrieving the company',
  customersError: 'An error occurred while loading your customers',
  deleteError: 'An error occurred while deleting the user',
  suspendError: 'An error occurred while suspending the user',

  // spec §5
  required: 'This field is required',
  parentCompanyRequired: 'Please select a parent company',
  invalidEmail: 'Please provide a valid email address',
  importParentFirst: IMPORT_TEXTS.parentNotOnSite,
  importNoEmail: IMPORT_TEXTS.customerWithoutEmail,
  importNoName: IMPORT_TEXTS.companyWithoutName,
  importSendWelcome: 'Send the welcome email to the imported customers',
  importAlready: IMPORT_TEXTS.onSite,

  // spec §4
  userAdded: 'A new user has been added!',
  usersAdded: 'Users have been added!',

  // create-user dialog
  createTitle: 'Create User',
  chooseType: 'What would you like to create?',
  company: 'Company',
  customer: 'Customer',
  admin: 'Admin',
  back: 'Back',
  submit: 'Submit',
  done: 'Done',
  parentCompany: 'Parent company',

  // import dialog
  importTitle: 'Import Users from QuickBooks',
  importSubmit: 'Import',
  importLoading: 'Loading the QuickBooks users',
  importSearch: 'Search by name, company or e-mail',
  importHideOnSite: 'Hide those already on the site',
  importRefresh: 'Refresh',
  importListedAt: (at: Date) =>
    `Listed from QuickBooks at ${at.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' })}`,
  importPrevious: 'Previous',
  importNext: 'Next',
  importShowing: (from: number, to: number, total: number) =>
    `${from}–${to} of ${total.toLocaleString('en-US')}`,
  importTicked: (n: number) => `${n} selected`,

  // detail pages
  backToUsers: 'Back to users',
  customerDetails: 'Customer details',
  adminDetails: 'Admin details',
  companyDetails: 'Company details',
  orders: 'Orders',
  suspend: 'Suspend',
  enable: 'Enable',
  delete: 'Delete',
  cancel: 'Cancel',
  resendWelcome: 'Resend welcome email',
  deleteTitle: 'Delete user',
  deleteCompanyTitle: 'Delete company',
  deleteQuestion: (name: string) => `Delete ${name}? This cannot be undone.`,
  welcomeSent: 'The welcome email has been sent',
  edit: 'Edit',
  editUser: 'Edit user',
  editCompany: 'Edit company',
  userUpdated: 'The user has been updated',
  companyUpdated: 'The company has been updated',
  suspendedNotice: 'This user is suspended and cannot sign in.',
} as const;

/** Field labels (also the column titles). */
export const LABELS = {
  company: 'Company',
  displayName: 'Display name',
  name: 'Name',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  street: 'Street',
  city: 'City',
  state: 'State',
  zipCode: 'Zip code',
  address: 'Address',
  parentCompany: 'Parent company',
  status: 'Status',
} as const;

/** antd's message for a rule without its own: spec §5 'This field is required'. */
export const VALIDATE_MESSAGES = { required: USERS_TEXTS.required } as const;

/** The response's message (normalised by the client), else the generic text. */
export function errorText(error: unknown): string {
  return isApiError(error) ? error.message : FALLBACK_MESSAGE;
}

/** An expired QuickBooks session is told by the QuickBooks notice, not as another error. */
export function isQboExpired(error: unknown): boolean {
  return isApiError(error) && error.qboSessionExpired === true;
}

/** One line of an address from its parts, skipping the empty ones. */
export function addressOf(parts: {
  street?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
}): string {
  const cityLine = [parts.city, [parts.state, parts.zipCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [parts.street, cityLine].filter(Boolean).join(', ');
}

/** First and last name, else the display name. */
export function personName(user: { firstName: string; lastName: string; displayName: string }): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.displayName;
}
