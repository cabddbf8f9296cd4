export const HOME_TEXTS = {
  title: 'Back office',
  orders: 'Orders',
  users: 'Users',
  sync: 'QuickBooks sync',
  availability: 'Availability',
  conflicts: 'Days booked beyond stock',
  pendingReview: 'Estimates pending review',
  pendingUpdate: 'Orders pending update',
  customers: 'Customers',
  failedJobs: 'Failed sync jobs',
  deadLetters: 'Dead-lettered events',
  /** In place of a count that did not load. */
  unavailable: 'unavailable',
  notFound: 'There is no such back-office page',
  backHome: 'Back to the back office',
} as const;
