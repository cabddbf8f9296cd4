/**
 * The public entry for browsers (`@decor/contracts/rules`): the spec's rules and texts the frontends
 * share with the services, without the event schemas (and their validator) the services need.
 */
export * from './acceptance';
export * from './availability';
export * from './calendar-day';
// Types only: the company bodies' schemas stay on the servers.
export type { CompanyChanges, NewCompany } from './company-bodies';
export * from './contact-form';
export * from './email-address';
export * from './estimate-fields';
export * from './failed-emails';
export * from './lifecycle';
export * from './money';
// A type only: the order events' schemas stay on the servers.
export type { OrderType } from './order-events';
// A type only: the stream message's schema stays on the servers.
export type { OrderChange } from './order-stream';
export * from './password-rule';
export * from './product-images';
export * from './qbo-import';
export * from './qbo-session';
export * from './roles';
export * from './summary-format';
export * from './sync-jobs';
// Types only: the views' schemas stay on the servers.
export type {
  ActionAvailability,
  CartLineView,
  CartView,
  CompanyView,
  DeadLetterView,
  OrderActionsView,
  OrderLineView,
  OrderView,
  QboImportCompanyView,
  QboImportCustomerView,
  QboImportPageView,
  SessionCartView,
  SessionUserView,
  UserView,
} from './views';
