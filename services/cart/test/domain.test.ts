import { cartTotalCents, REFUSAL_HTTP_STATUS, Refusal } from '@decor/contracts';
import {
  applyChange,
  type Cart,
  type CartsChange,
  type Clock,
  type CustomerCarts,
  cartNameOf,
  checkOut,
  checkQty,
  copyCart,
  createCart,
  deleteCart,
  isActive,
  MAX_CARTS_PER_CUSTOMER,
  MAX_LINES_PER_CART,
  MESSAGES,
  newCustomerCarts,
  onlyAvailable,
  type ProductInfo,
  removeLines,
  saveLines,
  setLineQty,
  updateCart,
} from '../src/domain/cart';
import { cartState, cartView } from '../src/domain/view';

let seq = 0;
const clock = (): Clock => ({
  newId: () => (++seq).toString(16).padStart(24, '0'),
  now: new Date(1_700_000_000_000 + seq),
});

const chair: ProductInfo = {
  sku: 'SEA-CH-004',
  name: 'White Folding Chair',
  description: 'Folding',
  priceCents: 325,
  quantity: 10,
  qboId: '42',
};
const arch: ProductInfo = {
  sku: 'ARC-001',
  name: 'Wedding Arch',
  description: '',
  priceCents: 12000,
  quantity: 2,
};
const gone: ProductInfo = { sku: 'GONE-1', name: 'Gone', description: '', priceCents: 100, quantity: 0 };
const catalogue = new Map([chair, arch, gone].map((p) => [p.sku, p]));
const productOf = (sku: string) => catalogue.get(sku) ?? null;

/** The refusal a rule throws, as the client gets it (the edge's one mapping): status and message. */
function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof Refusal) return { status: REFUSAL_HTTP_STATUS[err.kind], message: err.message };
    throw err;
  }
  throw new Error('expected the rule to refuse');
}

const apply = (state: CustomerCarts, change: CartsChange | null) =>
  change ? applyChange(state, change) : state;
const cartOf = (state: CustomerCarts, id: string) => state.carts.find((c) => c.id === id) as Cart;

/** A customer with the first active cart and one more inactive cart. */
function twoCarts() {
  const start = newCustomerCarts('u1', clock());
  const first = start.activeCartId;
  const created = createCart(start, { cartName: '  Spring gala  ' }, clock());
  const state = applyChange(start, created);
  return { state, first, second: created.changed[0] as string };
}

describe('a new customer', () => {
  it('has exactly one cart, active, named My Cart, at revision 1', () => {
    const state = newCustomerCarts('u1', clock());
    expect(state.carts).toHaveLength(1);
    expect(state.carts[0]).toMatchObject({ cartName: 'My Cart', didCheckOut: false, lines: [] });
    expect(state.activeCartId).toBe(state.carts[0]?.id);
    expect(state.revision).toBe(1);
  });
});

describe('creating a cart', () => {
  it('adds an inactive cart with the trimmed name (default My Cart)', () => {
    const { state, first, second } = twoCarts();
    expect(cartOf(state, second).cartName).toBe('Spring gala');
    expect(state.activeCartId).toBe(first);
    expect(state.revision).toBe(2);
    const unnamed = createCart(state, {}, clock());
    expect(cartOf(applyChange(state, unnamed), unnamed.changed[0] as string).cartName).toBe('My Cart');
  });

  it('refuses isActive: true, empty or long names, and more than 500 carts', () => {
    const { state } = twoCarts();
    expect(refusal(() => createCart(state, { isActive: true }, clock()))).toEqual({
      status: 409,
      message: MESSAGES.newCartInactive,
    });
    expect(refusal(() => createCart(state, { cartName: '   ' }, clock()))).toEqual({
      status: 400,
      message: 'Cart name must not be empty',
    });
    expect(refusal(() => createCart(state, { cartName: 'x'.repeat(101) }, clock())).message).toBe(
      'Cart name must be at most 100 characters',
    );
    expect(cartNameOf(` ${'x'.repeat(100)} `)).toHaveLength(100);
    const full: CustomerCarts = {
      ...state,
      carts: Array.from({ length: MAX_CARTS_PER_CUSTOMER }, () => state.carts[1] as Cart),
    };
    expect(refusal(() => createCart(full, {}, clock()))).toEqual({
      status: 409,
      message: MESSAGES.tooManyCarts,
    });
  });
});

describe('updating a cart', () => {
  it('sets another cart active: the old one is announced first, then the new one', () => {
    const { state, first, second } = twoCarts();
    const change = updateCart(state, second, { isActive: true }, clock());
    expect(change?.changed).toEqual([first, second]);
    const after = apply(state, change);
    expect(after.activeCartId).toBe(second);
    expect(after.carts.filter((c) => isActive(after, c))).toHaveLength(1);
  });

  it('renames, and changes nothing when nothing differs', () => {
    const { state, second } = twoCarts();
    const renamed = apply(state, updateCart(state, second, { cartName: ' Gala ' }, clock()));
    expect(cartOf(renamed, second).cartName).toBe('Gala');
    expect(
      updateCart(renamed, second, { cartName: 'Gala', isActive: false, didCheckOut: false }, clock()),
    ).toBeNull();
    expect(updateCart(renamed, renamed.activeCartId, { isActive: true }, clock())).toBeNull();
  });

  it('refuses to deactivate the active cart, to check out, and unknown carts', () => {
    const { state, first } = twoCarts();
    expect(refusal(() => updateCart(state, first, { isActive: false }, clock()))).toEqual({
      status: 409,
      message: MESSAGES.oneActive,
    });
    expect(refusal(() => updateCart(state, first, { didCheckOut: true }, clock()))).toEqual({
      status: 409,
      message: MESSAGES.checkoutByOrderOnly,
    });
    expect(refusal(() => updateCart(state, 'f'.repeat(24), {}, clock()))).toEqual({
      status: 404,
      message: 'Cart not found',
    });
  });

  it('refuses any change to a submitted cart', () => {
    const { state, first } = twoCarts();
    const after = apply(state, checkOut(state, first, clock()));
    for (const patch of [{ cartName: 'New name' }, { isActive: true }, { didCheckOut: false }]) {
      expect(refusal(() => updateCart(after, first, patch, clock()))).toEqual({
        status: 409,
        message: MESSAGES.submitted,
      });
    }
    expect(updateCart(after, first, { didCheckOut: true, isActive: false }, clock())).toBeNull();
  });
});

describe('deleting a cart', () => {
  it('deletes an inactive cart and announces it', () => {
    const { state, second } = twoCarts();
    const change = deleteCart(state, second);
    expect(change.deleted).toEqual([second]);
    expect(applyChange(state, change).carts.map((c) => c.id)).not.toContain(second);
  });

  it('refuses the active cart and a submitted cart', () => {
    const { state, first, second } = twoCarts();
    expect(refusal(() => deleteCart(state, first))).toEqual({
      status: 409,
      message: MESSAGES.activeCannotBeDeleted,
    });
    const submitted = apply(state, checkOut(state, second, clock()));
    expect(refusal(() => deleteCart(submitted, second))).toEqual({
      status: 409,
      message: MESSAGES.submittedCannotBeDeleted,
    });
  });
});

describe('cart lines', () => {
  it('sets the quantity at the catalogue price, creating the line once', () => {
    const { state, first } = twoCarts();
    const added = apply(state, setLineQty(state, first, chair.sku, chair, 3, clock()));
    const line = cartOf(added, first).lines[0];
    expect(line).toMatchObject({
      productId: chair.sku,
      qty: 3,
      priceCents: 325,
      name: chair.name,
      qboId: '42',
    });
    const repriced = { ...chair, priceCents: 400 };
    const again = apply(added, setLineQty(added, first, chair.sku, repriced, 5, clock()));
    expect(cartOf(again, first).lines).toEqual([{ ...line, qty: 5, priceCents: 400 }]);
  });

  it('checks the quantity: whole, at least 1, at most the stock', () => {
    expect(refusal(() => checkQty(1.5, 10))).toEqual({ status: 400, message: MESSAGES.qtyWhole });
    expect(refusal(() => checkQty(0, 10))).toEqual({ status: 400, message: 'Quantity must be at least 1' });
    expect(refusal(() => checkQty(11, 10))).toEqual({
      status: 400,
      message: 'Only 10 of this product are available',
    });
    expect(onlyAvailable(1)).toBe('Only 1 of this product is available');
    expect(onlyAvailable(0)).toBe('This product is out of stock');
    expect(() => checkQty(10, 10)).not.toThrow();
  });

  it('refuses unknown products and carts, submitted carts and more than 200 lines', () => {
    const { state, first } = twoCarts();
    expect(refusal(() => setLineQty(state, first, 'NOPE', null, 1, clock()))).toEqual({
      status: 404,
      message: 'Product not found',
    });
    expect(refusal(() => setLineQty(state, 'a'.repeat(24), chair.sku, chair, 1, clock())).status).toBe(404);
    const submitted = apply(state, checkOut(state, first, clock()));
    expect(refusal(() => setLineQty(submitted, first, chair.sku, chair, 1, clock())).message).toBe(
      MESSAGES.submitted,
    );
    const lines = Array.from({ length: MAX_LINES_PER_CART }, (_, i) => ({
      id: `l${i}`,
      productId: `P${i}`,
      name: 'x',
      description: '',
      qty: 1,
      priceCents: 1,
    }));
    const full: CustomerCarts = {
      ...state,
      carts: state.carts.map((c) => (c.id === first ? { ...c, lines } : c)),
    };
    expect(refusal(() => setLineQty(full, first, chair.sku, chair, 1, clock()))).toEqual({
      status: 409,
      message: MESSAGES.tooManyLines,
    });
    expect(() => setLineQty(full, first, 'P3', { ...chair, sku: 'P3' }, 2, clock())).not.toThrow();
  });

  it('saves several lines at once, all or none, naming the refused item', () => {
    const { state, first, second } = twoCarts();
    const change = saveLines(
      state,
      [
        { cartId: first, productId: chair.sku, qty: 2 },
        { cartId: second, productId: arch.sku, qty: 1 },
        { cartId: first, productId: chair.sku, qty: 4 },
      ],
      productOf,
      clock(),
    );
    expect(change.changed).toEqual([first, second]);
    const after = applyChange(state, change);
    expect(cartOf(after, first).lines.map((l) => [l.productId, l.qty])).toEqual([[chair.sku, 4]]);
    const label = (i: number, m: string) => `Item ${i + 1}: ${m}`;
    const bad = [
      { cartId: first, productId: chair.sku, qty: 1 },
      { cartId: first, productId: arch.sku, qty: 3 },
    ];
    expect(refusal(() => saveLines(state, bad, productOf, clock(), label))).toEqual({
      status: 400,
      message: 'Item 2: Only 2 of this product are available',
    });
  });

  it('removes lines by line id from any of the customer carts; unknown ids refuse the whole call', () => {
    const { state, first, second } = twoCarts();
    const filled = applyChange(
      state,
      saveLines(
        state,
        [
          { cartId: first, productId: chair.sku, qty: 1 },
          { cartId: first, productId: arch.sku, qty: 1 },
          { cartId: second, productId: arch.sku, qty: 2 },
        ],
        productOf,
        clock(),
      ),
    );
    const [chairLine, archLine] = cartOf(filled, first).lines;
    const otherArch = cartOf(filled, second).lines[0];
    const change = removeLines(filled, [chairLine?.id as string, otherArch?.id as string], clock());
    expect(change.changed).toEqual([first, second]);
    const after = applyChange(filled, change);
    expect(cartOf(after, first).lines).toEqual([archLine]);
    expect(cartOf(after, second).lines).toEqual([]);
    expect(refusal(() => removeLines(filled, [archLine?.id as string, 'f'.repeat(24)], clock()))).toEqual({
      status: 404,
      message: 'Cart line not found',
    });
  });
});

describe('copying a cart', () => {
  it('adds the lines up, capped at stock, at current prices, skipping gone or empty products', () => {
    const { state, first, second } = twoCarts();
    const filled = applyChange(
      state,
      saveLines(
        state,
        [
          { cartId: first, productId: chair.sku, qty: 7 },
          { cartId: first, productId: arch.sku, qty: 2 },
          { cartId: second, productId: chair.sku, qty: 6 },
        ],
        productOf,
        clock(),
      ),
    );
    // The source also holds a product that went out of stock and one the catalogue dropped.
    const withStale: CustomerCarts = {
      ...filled,
      carts: filled.carts.map((c) =>
        c.id === first
          ? {
              ...c,
              lines: [
                ...c.lines,
                { id: 'x1', productId: gone.sku, name: 'Gone', description: '', qty: 1, priceCents: 100 },
                { id: 'x2', productId: 'DROPPED', name: 'Dropped', description: '', qty: 1, priceCents: 100 },
              ],
            }
          : c,
      ),
    };
    const cheaper = new Map(catalogue);
    cheaper.set(arch.sku, { ...arch, priceCents: 9000 });
    const change = copyCart(withStale, first, second, (sku) => cheaper.get(sku) ?? null, clock());
    expect(change.changed).toEqual([second]);
    const target = cartOf(applyChange(withStale, change), second);
    expect(target.lines.map((l) => [l.productId, l.qty, l.priceCents])).toEqual([
      [chair.sku, 10, 325],
      [arch.sku, 2, 9000],
    ]);
    expect(cartOf(applyChange(withStale, change), first)).toEqual(cartOf(withStale, first));
  });

  it('copies from a submitted cart but never into one, nor into itself', () => {
    const { state, first, second } = twoCarts();
    const submitted = apply(state, checkOut(state, second, clock()));
    expect(() => copyCart(submitted, second, first, productOf, clock())).not.toThrow();
    expect(refusal(() => copyCart(submitted, first, second, productOf, clock())).message).toBe(
      MESSAGES.submitted,
    );
    expect(refusal(() => copyCart(submitted, first, first, productOf, clock())).message).toBe(
      MESSAGES.copyIntoItself,
    );
  });
});

describe('checking out (an order was submitted)', () => {
  it('checks the active cart out and makes a new active My Cart', () => {
    const { state, first } = twoCarts();
    const change = checkOut(state, first, clock());
    expect(change?.changed[0]).toBe(first);
    const after = apply(state, change);
    expect(cartOf(after, first).didCheckOut).toBe(true);
    const next = cartOf(after, after.activeCartId);
    expect(next).toMatchObject({ cartName: 'My Cart', didCheckOut: false, lines: [] });
    expect(change?.changed).toEqual([first, next.id]);
    expect(after.carts).toHaveLength(3);
  });

  it('checks an inactive cart out without a new cart; does nothing twice or for unknown carts', () => {
    const { state, first, second } = twoCarts();
    const after = apply(state, checkOut(state, second, clock()));
    expect(after.activeCartId).toBe(first);
    expect(after.carts).toHaveLength(2);
    expect(checkOut(after, second, clock())).toBeNull();
    expect(checkOut(after, 'e'.repeat(24), clock())).toBeNull();
  });
});

describe('views', () => {
  it('shows dollars, line totals and the cart total, with current stock', () => {
    const { state, first } = twoCarts();
    const after = applyChange(
      state,
      saveLines(
        state,
        [
          { cartId: first, productId: chair.sku, qty: 3 },
          { cartId: first, productId: arch.sku, qty: 2 },
        ],
        productOf,
        clock(),
      ),
    );
    const cart = cartOf(after, first);
    const view = cartView({ cart, userId: 'u1', isActive: true }, (sku) => (sku === chair.sku ? 8 : 0));
    expect(view).toMatchObject({
      id: first,
      UserId: 'u1',
      cartName: 'My Cart',
      isActive: true,
      didCheckOut: false,
    });
    expect(view.cartTotal).toBe(249.75);
    expect(view.CartProducts[0]).toEqual({
      id: chair.sku,
      CartId: first,
      CartProductId: cart.lines[0]?.id,
      name: chair.name,
      description: chair.description,
      qty: 3,
      price: 3.25,
      total: 9.75,
      quantity: 8,
      qboId: '42',
    });
    expect(view.CartProducts[1]).toMatchObject({ qboId: null, quantity: 0, total: 240 });
    const state2 = cartState({ cart, userId: 'u1', isActive: false });
    expect(state2.totalCents).toBe(cartTotalCents(cart.lines));
    expect(state2).toMatchObject({ isActive: false, userId: 'u1', createdAt: cart.createdAt.toISOString() });
    expect(state2.lines[1]).not.toHaveProperty('qboId');
  });
});
