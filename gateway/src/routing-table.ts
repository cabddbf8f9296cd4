/**
 * Every public call of both spec documents (section 7), by path prefix under /api, and the
 * service that owns it. The longest matching prefix wins (Fastify's router is specific-first).
 *
 * `access` is the least a caller needs for the whole prefix; the gateway refuses early what can
 * be refused early, and each service still checks the exact rule per route (defence in depth).
 */
export type ServiceName = 'user' | 'catalogue' | 'cart' | 'order' | 'accounting-sync' | 'notification';
export type Access = 'public' | 'signedIn' | 'staff';

export interface Route {
  prefix: string;
  service: ServiceName;
  access: Access;
  /** Sign-in and e-mail triggers get a per-client rate limit. */
  rateLimited?: boolean;
}

export const ROUTES: readonly Route[] = [
  // accounts, companies, sign-in, password reset
  { prefix: '/auth', service: 'user', access: 'public' },
  // sign-in only: the session check (/auth/jwt) runs on every page load
  { prefix: '/auth/user', service: 'user', access: 'public', rateLimited: true },
  // public: PUT /user/{id} also takes a reset link's token (no permissions claim); the user service checks every /user route
  // itself (the staff list GET /user, POST /user and DELETE /user/{id} refuse visitors 401 and customers 403 there).
  { prefix: '/user', service: 'user', access: 'public' },
  { prefix: '/users', service: 'user', access: 'staff' },
  { prefix: '/company', service: 'user', access: 'staff' },
  { prefix: '/send/reset', service: 'user', access: 'public', rateLimited: true },
  // catalogue
  { prefix: '/categories', service: 'catalogue', access: 'public' },
  { prefix: '/product', service: 'catalogue', access: 'public' },
  { prefix: '/trucking', service: 'catalogue', access: 'staff' },
  // carts
  { prefix: '/cart', service: 'cart', access: 'signedIn' },
  { prefix: '/cartProduct', service: 'cart', access: 'signedIn' },
  { prefix: '/saveBulk', service: 'cart', access: 'signedIn' },
  // estimates and invoices
  { prefix: '/estimate', service: 'order', access: 'signedIn' },
  { prefix: '/invoice', service: 'order', access: 'signedIn' },
  // online acceptance (issue 30): the shop's settings (GET staff, PUT superadmin: the service checks), and the
  // payment provider's signed webhooks (public: the signature over the raw body, passed through untouched, is the proof)
  { prefix: '/settings/acceptance', service: 'order', access: 'staff' },
  { prefix: '/payments/webhook', service: 'order', access: 'public' },
  // availability by date (issue 15): visitors get hints, signed-in users numbers, staff the calendar
  { prefix: '/availability', service: 'order', access: 'public' },
  { prefix: '/availability/calendar', service: 'order', access: 'staff' },
  { prefix: '/availability/holds', service: 'order', access: 'staff' },
  { prefix: '/availability/conflicts', service: 'order', access: 'staff' },
  // e-mail triggers
  // the user service mints the welcome e-mail's set-password link; notification sends it from its event
  { prefix: '/send/welcomeEmail', service: 'user', access: 'staff' },
  { prefix: '/send/newEstimate', service: 'notification', access: 'signedIn' },
  { prefix: '/send/orderUpdate', service: 'notification', access: 'signedIn' },
  { prefix: '/send/info', service: 'notification', access: 'public', rateLimited: true },
  // e-mails that failed for good (Replay) and the e-mail queue's counts: the sync page's
  { prefix: '/send/failed', service: 'notification', access: 'staff' },
  { prefix: '/send/queue', service: 'notification', access: 'staff' },
  // QuickBooks: the callback's token exchange and the staff calls (tokens stay in accounting-sync)
  { prefix: '/auth/accessToken', service: 'accounting-sync', access: 'staff' },
  { prefix: '/qbo', service: 'accounting-sync', access: 'staff' },
  // Bull Board: a browser page, so no Authorization header; the service checks its cookie session.
  { prefix: '/admin/queues', service: 'accounting-sync', access: 'public' },
];
