/**
 * Response views: what a server answers and a frontend reads, written once. Each is a JSON schema
 * (the server validates and documents its answer with it) and its type (`Static`), which the
 * frontends import as a type only (`@decor/contracts/rules`), so no TypeBox reaches a browser.
 */
import { type Static, Type } from '@sinclair/typebox';
import { ACCEPTANCE_STATES, DEPOSIT_STATES } from './acceptance';
import { type EstimateDetailField, ORDER_FIELDS } from './estimate-fields';
import { ORDER_STATUSES, UI_ACTIONS, type UiAction } from './lifecycle';

const nullableText = Type.Union([Type.String(), Type.Null()]);

/** A cart line as the cart API shows it (spec §3 Cart line). Money in dollars. */
export const CartLineView = Type.Object({
  id: Type.String({ description: 'The product id (SKU)' }),
  CartId: Type.String(),
  CartProductId: Type.String({ description: "The line's own id" }),
  name: Type.String(),
  description: Type.String(),
  qty: Type.Integer(),
  price: Type.Number({ description: 'Dollars: the catalogue price when the line was saved' }),
  total: Type.Number({ description: 'Dollars: price × qty' }),
  quantity: Type.Integer({ description: "The product's current stock" }),
  qboId: nullableText,
});
export type CartLineView = Static<typeof CartLineView>;

/** A cart as the cart API shows it (spec §3 Cart). */
export const CartView = Type.Object({
  id: Type.String(),
  UserId: Type.String(),
  cartName: Type.String(),
  isActive: Type.Boolean(),
  didCheckOut: Type.Boolean(),
  createdAt: Type.String({ description: 'ISO date and time' }),
  cartTotal: Type.Number({ description: 'Dollars: the sum of the line totals' }),
  CartProducts: Type.Array(CartLineView),
});
export type CartView = Static<typeof CartView>;

/** A site user as the user service shows it (spec orders §3 User; never the password). */
export const UserView = Type.Object({
  id: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  displayName: Type.String(),
  email: Type.String(),
  phone: nullableText,
  permissions: Type.String({ description: "'customer', 'admin' or 'superadmin' (contracts' roles)" }),
  active: Type.Boolean(),
  ownCompany: Type.Union([
    Type.String({ description: "The customer's own wording of their company" }),
    Type.Null(),
  ]),
  CompanyId: Type.Union([Type.String({ description: 'The parent company' }), Type.Null()]),
  qboId: nullableText,
});
export type UserView = Static<typeof UserView>;

/** Spec §3: the session user (`/auth/jwt`) also holds a customer's active cart. */
export const SessionCartView = Type.Object({
  id: Type.String(),
  cartName: Type.String(),
  cartTotal: Type.Number({ description: 'Dollars' }),
});
export type SessionCartView = Static<typeof SessionCartView>;

export const SessionUserView = Type.Intersect([
  UserView,
  Type.Object({ cart: Type.Optional(Type.Union([SessionCartView, Type.Null()])) }),
]);
export type SessionUserView = Static<typeof SessionUserView>;

/** A company as the user service shows it (spec orders §3 Company); empty fields are null. */
export const CompanyView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  street: nullableText,
  city: nullableText,
  state: nullableText,
  zipCode: nullableText,
  phone: nullableText,
  qboId: nullableText,
});
export type CompanyView = Static<typeof CompanyView>;

/** An event a consumer group of accounting-sync gave up on (GET /qbo/dead-letters). */
export const DeadLetterView = Type.Object({
  id: Type.String(),
  /** The consumer group that gave up on the event. */
  group: Type.String(),
  type: Type.String(),
  aggregateId: Type.String(),
  error: Type.String(),
  failedAt: Type.String({ description: 'ISO date and time' }),
});
export type DeadLetterView = Static<typeof DeadLetterView>;

/** One button of an order: allowed, or not with spec §6's tooltip when the caller may see one. */
export const ActionAvailability = Type.Object({
  allowed: Type.Boolean(),
  reason: Type.Optional(Type.String({ description: "Spec §6's tooltip, when the button is disabled" })),
});
export type ActionAvailability = Static<typeof ActionAvailability>;

/** The caller's buttons on an order (`actions` of an order view), one per UI action of the lifecycle. */
export const OrderActionsView = Type.Object(
  Object.fromEntries(UI_ACTIONS.map((a) => [a, ActionAvailability])) as Record<
    UiAction,
    typeof ActionAvailability
  >,
  { description: 'What the caller may do now; disabled buttons carry the spec §6 tooltip (reason)' },
);
export type OrderActionsView = Static<typeof OrderActionsView>;

/** A line asked for more units than are free on its tightest day (a 409's `shortLines`, issue 15). */
export const ShortLine = Type.Object({
  productId: Type.String(),
  name: Type.String(),
  requested: Type.Integer(),
  available: Type.Integer(),
  day: Type.String({ description: 'The tightest day of the window (YYYY-MM-DD)' }),
});
export type ShortLine = Static<typeof ShortLine>;

/**
 * Staff's confirmation of a sub-rental, recorded on the order: who booked it beyond the free units,
 * when (ISO), and the lines that were short then.
 */
export const SubRental = Type.Object(
  {
    by: Type.String({ description: 'The staff member (e-mail) who confirmed it' }),
    at: Type.String({ description: 'ISO date and time' }),
    lines: Type.Array(ShortLine, { description: 'The lines short of free units at that moment' }),
  },
  { description: 'Staff only: the order was booked beyond the free units on purpose (a sub-rental)' },
);
export type SubRental = Static<typeof SubRental>;

/** An order's line (spec §3 Order, `CartProducts`): the product, and its price at submission. */
export const OrderLineView = Type.Object({
  id: Type.String({ description: 'The product id (SKU)' }),
  name: Type.String(),
  description: Type.String(),
  qty: Type.Integer(),
  price: Type.Number({ description: 'Dollars, at submission' }),
  total: Type.Number({ description: 'Dollars: price × qty' }),
  qboId: nullableText,
});
export type OrderLineView = Static<typeof OrderLineView>;

/** The User an order carries (spec §3 Order): its customer. */
export const OrderUserView = Type.Object({
  displayName: Type.String(),
  ownCompany: nullableText,
  email: Type.String(),
  qboId: nullableText,
});
export type OrderUserView = Static<typeof OrderUserView>;

/** Issue 30: where the customer's online acceptance stands, on estimates that were offered it. */
export const AcceptanceSummaryView = Type.Object({
  state: Type.Union(ACCEPTANCE_STATES.map((s) => Type.Literal(s))),
  depositState: Type.Union([...DEPOSIT_STATES.map((s) => Type.Literal(s)), Type.Null()]),
  /** When the offer ends (or ended: state 'expired'); staff may extend it. */
  expiresAt: Type.Union([Type.String({ description: 'ISO date and time' }), Type.Null()]),
});
export type AcceptanceSummaryView = Static<typeof AcceptanceSummaryView>;

/** The 18 event and will-call fields in a view, from the fields table: each its value or null when empty. */
const detailViewProperties = Object.fromEntries(ORDER_FIELDS.map((f) => [f.name, nullableText])) as Record<
  EstimateDetailField,
  typeof nullableText
>;

/** Spec §3 Order as an estimate shows it, before the caller's parts (`acceptance`, `actions`). */
const estimateProperties = {
  id: Type.String(),
  DocNumber: Type.String(),
  UserId: Type.String(),
  CartId: Type.String(),
  status: Type.String({ description: ORDER_STATUSES.join(', ') }),
  hasBeenModified: Type.Boolean(),
  hasInvoice: Type.Boolean(),
  isInQbo: Type.Boolean(),
  qboId: nullableText,
  syncToken: nullableText,
  ...detailViewProperties,
  subtotal: Type.Number({ description: 'Dollars: the sum of the lines' }),
  truckingFee: Type.Number({ description: 'Dollars' }),
  salesTax: Type.Number({ description: 'Dollars: 8.1 % of subtotal + trucking' }),
  total: Type.Number({ description: 'Dollars: subtotal + trucking + tax' }),
  createdAt: Type.String({ description: 'ISO date and time' }),
  CartProducts: Type.Array(OrderLineView),
  User: OrderUserView,
  subRental: Type.Optional(SubRental),
};
/** What an invoice shares with its estimate: everything but `hasInvoice` (estimate only). */
const { hasInvoice: _hasInvoice, ...orderProperties } = estimateProperties;

/**
 * An estimate as the order API answers it (spec §3 Order): the spec's field names, every event and
 * will-call field present (null when empty), money in dollars, lines as CartProducts; where its
 * acceptance stands when it was offered (issue 30), and the caller's buttons.
 */
export const EstimateView = Type.Object({
  ...estimateProperties,
  acceptance: Type.Optional(AcceptanceSummaryView),
  actions: OrderActionsView,
});
export type EstimateView = Static<typeof EstimateView>;

/** An invoice as the order API answers it: as its estimate, with EstimateId instead of hasInvoice. */
export const InvoiceView = Type.Object({
  ...orderProperties,
  EstimateId: Type.String({ description: 'The estimate this invoice was created from' }),
  actions: OrderActionsView,
});
export type InvoiceView = Static<typeof InvoiceView>;

/**
 * Spec §3 Order (estimate or invoice) as a screen that shows both reads it: what they share, each
 * one's own fields optional (an estimate's hasInvoice and acceptance, an invoice's EstimateId).
 */
export type OrderView = Omit<EstimateView, 'hasInvoice'> &
  Partial<Pick<EstimateView, 'hasInvoice'> & Pick<InvoiceView, 'EstimateId'>>;

const importMarks = {
  onSite: Type.Boolean({ description: 'a site record already carries this QuickBooks id' }),
  siteId: Type.Union([Type.String({ description: "that site record's id" }), Type.Null()]),
  selectable: Type.Boolean(),
  reason: Type.Union([Type.String({ description: 'why it cannot be ticked (shown as it is)' }), Type.Null()]),
};
const address = { street: nullableText, city: nullableText, state: nullableText, zipCode: nullableText };

/** `GET /qbo/users`: a QuickBooks company (a top-level Customer), marked by the import rules (spec §5). */
export const QboImportCompanyView = Type.Object({
  qboId: Type.String(),
  displayName: Type.String(),
  name: Type.Union([
    Type.String({ description: "QuickBooks' CompanyName (none: not selectable)" }),
    Type.Null(),
  ]),
  email: nullableText,
  phone: nullableText,
  ...address,
  ...importMarks,
});
export type QboImportCompanyView = Static<typeof QboImportCompanyView>;

/** `GET /qbo/users`: a QuickBooks customer (a Job under a company), marked by the import rules. */
export const QboImportCustomerView = Type.Object({
  qboId: Type.String(),
  displayName: Type.String(),
  firstName: nullableText,
  lastName: nullableText,
  email: Type.Union([Type.String({ description: 'none: not selectable' }), Type.Null()]),
  phone: nullableText,
  company: Type.Union([
    Type.String({ description: "its CompanyName, else its parent company's name (the site's ownCompany)" }),
    Type.Null(),
  ]),
  parentQboId: Type.String({ description: 'the top-level QuickBooks Customer it sits under' }),
  parentName: Type.Union([
    Type.String({ description: "that company's DisplayName (none: QuickBooks did not list it)" }),
    Type.Null(),
  ]),
  parentOnSite: Type.Boolean(),
  parentSiteId: Type.Union([
    Type.String({ description: "the site's company id (the new user's CompanyId)" }),
    Type.Null(),
  ]),
  ...address,
  ...importMarks,
});
export type QboImportCustomerView = Static<typeof QboImportCustomerView>;

/** `GET /qbo/users`' page: companies first, then customers; the matching total is in `total_count`. */
export const QboImportPageView = Type.Object({
  companies: Type.Array(QboImportCompanyView),
  customers: Type.Array(QboImportCustomerView),
  listedAt: Type.String({ format: 'date-time', description: 'when QuickBooks was read' }),
});
export type QboImportPageView = Static<typeof QboImportPageView>;
