import { refuse } from '@decor/contracts';

/**
 * A customer's carts as one aggregate (spec §3, §4): plain rules, no I/O. Every operation takes the
 * customer's current carts and returns the new ones plus which carts changed (in the order their
 * events go out), or throws the refusal the client is told (contracts' `refuse`). The store writes the result in ONE
 * single-document update guarded by the revision it was computed from.
 */

/** A product id (SKU) as the catalogue accepts it. */
export const SKU_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';
export const DEFAULT_CART_NAME = 'My Cart';
export const MAX_CART_NAME_LENGTH = 100;
/** Bounds the customer's document: 200 lines × 500 carts stays well inside one MongoDB document. */
export const MAX_LINES_PER_CART = 200;
export const MAX_CARTS_PER_CUSTOMER = 500;

export const MESSAGES = {
  cartNotFound: 'Cart not found',
  lineNotFound: 'Cart line not found',
  productNotFound: 'Product not found',
  customersOnly: 'Only customers have carts',
  activeCannotBeDeleted: 'The active cart cannot be deleted',
  submittedCannotBeDeleted: 'A submitted cart belongs to its order and cannot be deleted',
  submitted: 'This cart has been submitted and can no longer be changed',
  oneActive: 'A customer always has one active cart: set another cart active instead',
  checkoutByOrderOnly: 'Only submitting an order checks a cart out',
  newCartInactive: 'A new cart is always inactive: set it active afterwards',
  copyIntoItself: 'A cart cannot be copied into itself',
  nameEmpty: 'Cart name must not be empty',
  nameTooLong: `Cart name must be at most ${MAX_CART_NAME_LENGTH} characters`,
  qtyWhole: 'Quantity must be a whole number',
  qtyAtLeastOne: 'Quantity must be at least 1',
  outOfStock: 'This product is out of stock',
  tooManyLines: `A cart holds at most ${MAX_LINES_PER_CART} products`,
  tooManyCarts: `You can keep at most ${MAX_CARTS_PER_CUSTOMER} carts; delete one you no longer need`,
  changedMeanwhile: 'The cart changed meanwhile; please try again',
} as const;

export function onlyAvailable(stock: number): string {
  if (stock <= 0) return MESSAGES.outOfStock;
  return stock === 1 ? 'Only 1 of this product is available' : `Only ${stock} of this product are available`;
}

export interface CartLine {
  /** CartProductId: the line's own id. */
  id: string;
  productId: string;
  name: string;
  description: string;
  qty: number;
  /** The catalogue price when the line was last saved. */
  priceCents: number;
  qboId?: string | null;
}

export interface Cart {
  id: string;
  cartName: string;
  didCheckOut: boolean;
  createdAt: Date;
  updatedAt: Date;
  lines: CartLine[];
}

/** Everything one customer has: `isActive` of a cart is `cart.id === activeCartId`. */
export interface CustomerCarts {
  userId: string;
  activeCartId: string;
  carts: Cart[];
  /** Increases with every change; the store's optimistic concurrency check. */
  revision: number;
}

/** The catalogue's current state of a product, as this service's projection holds it. */
export interface ProductInfo {
  sku: string;
  name: string;
  description: string;
  priceCents: number;
  quantity: number;
  qboId?: string | null;
}

/** The new state and what to announce: CartChanged for `changed` (in order), CartDeleted for `deleted`. */
export interface CartsChange {
  activeCartId: string;
  carts: Cart[];
  changed: string[];
  deleted: string[];
}

/** What an operation needs from outside: fresh ids (24-hex) and the time. */
export interface Clock {
  newId(): string;
  now: Date;
}

export const isActive = (state: Pick<CustomerCarts, 'activeCartId'>, cart: Pick<Cart, 'id'>) =>
  cart.id === state.activeCartId;

export function findCart(state: CustomerCarts, cartId: string): Cart {
  const cart = state.carts.find((c) => c.id === cartId);
  if (!cart) throw refuse.notFound(MESSAGES.cartNotFound);
  return cart;
}

function emptyCart(id: string, cartName: string, now: Date): Cart {
  return { id, cartName, didCheckOut: false, createdAt: now, updatedAt: now, lines: [] };
}

/** A customer's first state: one active cart 'My Cart' (their first cart call, or UserCreated). */
export function newCustomerCarts(userId: string, clock: Clock): CustomerCarts {
  const cart = emptyCart(clock.newId(), DEFAULT_CART_NAME, clock.now);
  return { userId, activeCartId: cart.id, carts: [cart], revision: 1 };
}

/** Trimmed, 1..100 characters. */
export function cartNameOf(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw refuse.invalid(MESSAGES.nameEmpty);
  if (name.length > MAX_CART_NAME_LENGTH) throw refuse.invalid(MESSAGES.nameTooLong);
  return name;
}

/** Spec §5: a line's quantity is a whole number from 1 to the product's current stock. */
export function checkQty(qty: number, stock: number): void {
  if (!Number.isInteger(qty)) throw refuse.invalid(MESSAGES.qtyWhole);
  if (qty < 1) throw refuse.invalid(MESSAGES.qtyAtLeastOne);
  if (qty > stock) throw refuse.invalid(onlyAvailable(stock));
}

function assertChangeable(cart: Cart): void {
  if (cart.didCheckOut) throw refuse.conflict(MESSAGES.submitted);
}

function replaceCart(carts: Cart[], cart: Cart): Cart[] {
  return carts.map((c) => (c.id === cart.id ? cart : c));
}

/** Spec §4: "Create Cart makes a new inactive cart." */
export function createCart(
  state: CustomerCarts,
  input: { cartName?: string; isActive?: boolean },
  clock: Clock,
): CartsChange {
  if (input.isActive === true) throw refuse.conflict(MESSAGES.newCartInactive);
  if (state.carts.length >= MAX_CARTS_PER_CUSTOMER) throw refuse.conflict(MESSAGES.tooManyCarts);
  const name = input.cartName === undefined ? DEFAULT_CART_NAME : cartNameOf(input.cartName);
  const cart = emptyCart(clock.newId(), name, clock.now);
  return { activeCartId: state.activeCartId, carts: [...state.carts, cart], changed: [cart.id], deleted: [] };
}

export interface CartPatch {
  cartName?: string;
  isActive?: boolean;
  didCheckOut?: boolean;
}

/**
 * Rename and/or set active (spec §4 "Set Active Cart activates the chosen cart, deactivates the
 * previous one"). Null when nothing changes. A checked-out cart refuses every change; only an order
 * submission checks a cart out; the active cart cannot be made inactive (activate another instead).
 */
export function updateCart(
  state: CustomerCarts,
  cartId: string,
  patch: CartPatch,
  clock: Clock,
): CartsChange | null {
  const cart = findCart(state, cartId);
  const active = isActive(state, cart);
  const name = patch.cartName === undefined ? cart.cartName : cartNameOf(patch.cartName);
  if (cart.didCheckOut) {
    const differs = name !== cart.cartName || patch.isActive === true || patch.didCheckOut === false;
    if (differs) throw refuse.conflict(MESSAGES.submitted);
    return null;
  }
  if (patch.didCheckOut === true) throw refuse.conflict(MESSAGES.checkoutByOrderOnly);
  if (patch.isActive === false && active) throw refuse.conflict(MESSAGES.oneActive);

  const activate = patch.isActive === true && !active;
  const renamed = name !== cart.cartName;
  if (!activate && !renamed) return null;
  const updated = renamed ? { ...cart, cartName: name, updatedAt: clock.now } : cart;
  const carts = replaceCart(state.carts, updated);
  if (!activate) return { activeCartId: state.activeCartId, carts, changed: [cart.id], deleted: [] };
  // The previous active cart's event first, so a reader never sees two active carts.
  const previous = state.carts.some((c) => c.id === state.activeCartId) ? [state.activeCartId] : [];
  return { activeCartId: cart.id, carts, changed: [...previous, cart.id], deleted: [] };
}

/** Spec §4: only inactive carts can be deleted; a submitted one stays with its order. */
export function deleteCart(state: CustomerCarts, cartId: string): CartsChange {
  const cart = findCart(state, cartId);
  if (cart.didCheckOut) throw refuse.conflict(MESSAGES.submittedCannotBeDeleted);
  if (isActive(state, cart)) throw refuse.conflict(MESSAGES.activeCannotBeDeleted);
  return {
    activeCartId: state.activeCartId,
    carts: state.carts.filter((c) => c.id !== cartId),
    changed: [],
    deleted: [cartId],
  };
}

function lineFrom(id: string, product: ProductInfo, qty: number): CartLine {
  return {
    id,
    productId: product.sku,
    name: product.name,
    description: product.description,
    qty,
    // The catalogue's price now, whatever the client sent.
    priceCents: product.priceCents,
    ...(product.qboId ? { qboId: product.qboId } : {}),
  };
}

/** Sets a product's quantity in a cart (adds the line if missing) at the catalogue's current price. */
function withLine(cart: Cart, product: ProductInfo, qty: number, clock: Clock): Cart {
  const existing = cart.lines.find((l) => l.productId === product.sku);
  if (!existing && cart.lines.length >= MAX_LINES_PER_CART) throw refuse.conflict(MESSAGES.tooManyLines);
  const lines = existing
    ? cart.lines.map((l) => (l === existing ? lineFrom(l.id, product, qty) : l))
    : [...cart.lines, lineFrom(clock.newId(), product, qty)];
  return { ...cart, lines, updatedAt: clock.now };
}

/**
 * POST /cart/{id}/cartProduct/{productId}: SETS the line's quantity (1..stock), creating the line
 * if the product is not in the cart yet. `product` is null when the catalogue does not know it.
 */
export function setLineQty(
  state: CustomerCarts,
  cartId: string,
  productId: string,
  product: ProductInfo | null,
  qty: number,
  clock: Clock,
): CartsChange {
  return saveLines(state, [{ cartId, productId, qty }], () => product, clock);
}

export interface LineSave {
  cartId: string;
  productId: string;
  qty: number;
}

/**
 * Several line saves at once (POST /saveBulk/cartProduct), all or nothing: the first refused item
 * refuses the whole request. Items apply in order, so a repeated product ends with the last quantity.
 */
export function saveLines(
  state: CustomerCarts,
  items: readonly LineSave[],
  productOf: (sku: string) => ProductInfo | null,
  clock: Clock,
  label: (index: number, message: string) => string = (_i, message) => message,
): CartsChange {
  let carts = state.carts;
  const changed: string[] = [];
  items.forEach((item, index) => {
    const cart = carts.find((c) => c.id === item.cartId);
    if (!cart) throw refuse.notFound(MESSAGES.cartNotFound);
    assertChangeable(cart);
    const product = productOf(item.productId);
    if (!product) throw refuse.notFound(label(index, MESSAGES.productNotFound));
    try {
      checkQty(item.qty, product.quantity);
    } catch (err) {
      throw refuse.invalid(label(index, (err as Error).message));
    }
    carts = replaceCart(carts, withLine(cart, product, item.qty, clock));
    if (!changed.includes(cart.id)) changed.push(cart.id);
  });
  return { activeCartId: state.activeCartId, carts, changed, deleted: [] };
}

/** DELETE /cartProduct/{id} and deleteBulk: all lines must be the customer's, in carts not submitted. */
export function removeLines(state: CustomerCarts, lineIds: readonly string[], clock: Clock): CartsChange {
  const wanted = new Set(lineIds);
  const found = new Set<string>();
  const changed: string[] = [];
  const carts = state.carts.map((cart) => {
    const hit = cart.lines.filter((l) => wanted.has(l.id));
    if (hit.length === 0) return cart;
    assertChangeable(cart);
    for (const l of hit) found.add(l.id);
    changed.push(cart.id);
    return { ...cart, lines: cart.lines.filter((l) => !wanted.has(l.id)), updatedAt: clock.now };
  });
  if (found.size !== wanted.size) throw refuse.notFound(MESSAGES.lineNotFound);
  return { activeCartId: state.activeCartId, carts, changed, deleted: [] };
}

/**
 * PUT /cart/{id}/copy/{targetCartId}: the source's lines are added into the target. The same product
 * adds up, capped at the current stock; every copied line takes the current catalogue price;
 * products that no longer exist or have no stock are skipped. The source may be a submitted cart.
 */
export function copyCart(
  state: CustomerCarts,
  sourceId: string,
  targetId: string,
  productOf: (sku: string) => ProductInfo | null,
  clock: Clock,
): CartsChange {
  const source = findCart(state, sourceId);
  let target = findCart(state, targetId);
  if (source.id === target.id) throw refuse.conflict(MESSAGES.copyIntoItself);
  assertChangeable(target);
  for (const line of source.lines) {
    const product = productOf(line.productId);
    if (!product || product.quantity <= 0) continue;
    const existing = target.lines.find((l) => l.productId === line.productId);
    const qty = Math.min((existing?.qty ?? 0) + line.qty, product.quantity);
    target = withLine(target, product, qty, clock);
  }
  return {
    activeCartId: state.activeCartId,
    carts: replaceCart(state.carts, target),
    changed: [target.id],
    deleted: [],
  };
}

/**
 * An order was submitted from `cartId` (EstimateSubmitted, spec §4): the cart is checked out, and if
 * it was the active cart a new active 'My Cart' takes its place. Null when there is nothing to do
 * (unknown cart, already checked out), which also makes a redelivered event harmless.
 */
export function checkOut(state: CustomerCarts, cartId: string, clock: Clock): CartsChange | null {
  const cart = state.carts.find((c) => c.id === cartId);
  if (!cart || cart.didCheckOut) return null;
  const submitted = { ...cart, didCheckOut: true, updatedAt: clock.now };
  const carts = replaceCart(state.carts, submitted);
  if (!isActive(state, cart)) {
    return { activeCartId: state.activeCartId, carts, changed: [cart.id], deleted: [] };
  }
  // Not limited by MAX_CARTS_PER_CUSTOMER: the customer must always have an active cart.
  const next = emptyCart(clock.newId(), DEFAULT_CART_NAME, clock.now);
  return { activeCartId: next.id, carts: [...carts, next], changed: [cart.id, next.id], deleted: [] };
}

/** The state after a change (the store writes exactly this). */
export function applyChange(state: CustomerCarts, change: CartsChange): CustomerCarts {
  return { ...state, activeCartId: change.activeCartId, carts: change.carts, revision: state.revision + 1 };
}
