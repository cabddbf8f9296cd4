import { type Product, quantityAllowed, useActiveCart, useSaveCartLineMutation } from '@decor/web-core';
import { Alert, Button, Flex, ShoppingCartOutlined } from '@decor/web-core/ui';
import { InputNumber } from '@decor/web-core/ui-forms';
import { useEffect, useId, useState } from 'react';
import { SUCCESS_BANNER_MS, TEXTS } from '../../../texts';

/**
 * Customers' add-to-cart control (spec §4-5): a quantity from 1 to the stock (or to the units free on
 * the checked days); out of range nothing happens; 'Success!' or 'an error occurred', both dismissible.
 */
export function AddToCart({
  product,
  compact = false,
  limit,
}: {
  product: Product;
  compact?: boolean;
  /** Units free on the checked days (issue 15): the quantity is capped by it. */
  limit?: number;
}) {
  const activeCart = useActiveCart();
  const cartId = activeCart.cart?.id;
  const stock = Math.min(product.quantity ?? 0, limit ?? Number.POSITIVE_INFINITY);
  const [qty, setQty] = useState<number>(1);
  const [result, setResult] = useState<'success' | 'error' | null>(null);
  const [save, { isLoading }] = useSaveCartLineMutation();
  const inputId = useId();
  // A cap that falls under the chosen quantity brings it down (never below 1).
  useEffect(() => {
    if (stock >= 1) setQty((q) => Math.min(q, stock));
  }, [stock]);

  useEffect(() => {
    if (result !== 'success') return;
    const timer = setTimeout(() => setResult(null), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const add = async () => {
    // Right after sign-in (or an order) the active cart is still on its way: the button waits for it.
    if (!quantityAllowed(qty, stock) || activeCart.pending) return;
    if (!cartId) {
      setResult('error');
      return;
    }
    try {
      await save({ cartId, productId: product.id, qty, price: product.price }).unwrap();
      setResult('success');
    } catch {
      setResult('error');
    }
  };

  return (
    <div>
      <Flex gap={8} align="center" wrap>
        <label htmlFor={inputId} style={{ fontSize: 13 }}>
          Qty
        </label>
        <InputNumber
          id={inputId}
          min={1}
          max={Math.max(stock, 1)}
          precision={0}
          value={qty}
          disabled={stock < 1}
          onChange={(value) => setQty(typeof value === 'number' ? value : 0)}
          style={{ width: 76 }}
        />
        <Button
          type="primary"
          // The icon is decoration: without aria-hidden its 'shopping-cart' label would lead the name.
          icon={<ShoppingCartOutlined aria-hidden />}
          onClick={add}
          loading={isLoading || activeCart.pending}
          disabled={stock < 1}
          // The accessible name starts with the visible text (a voice user says what they see): the
          // product page's button is 'Add To Cart', a list card's 'Add' is 'Add {product} to the cart'.
          aria-label={compact ? `Add ${product.name} to the cart` : undefined}
        >
          {compact ? 'Add' : 'Add To Cart'}
        </Button>
      </Flex>
      {result ? (
        <Alert
          style={{ marginTop: 8 }}
          type={result}
          showIcon
          role={result === 'error' ? 'alert' : 'status'}
          title={result === 'success' ? TEXTS.addSuccess : TEXTS.addFailure}
          closable={{ onClose: () => setResult(null), 'aria-label': 'Dismiss' }}
        />
      ) : null}
    </div>
  );
}
