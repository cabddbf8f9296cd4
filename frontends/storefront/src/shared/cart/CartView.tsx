import {
  type CartLine,
  formatDollars,
  quantityAllowed,
  useGetCartQuery,
  useRemoveCartLineMutation,
  useSaveCartLineMutation,
  useUpdateCartMutation,
} from '@decor/web-core';
import { Link, useLocation, useNavigate } from '@decor/web-core/router';
import { Alert, Button, DeleteOutlined, Flex, Loading } from '@decor/web-core/ui';
import { Table, type TableColumnsType } from '@decor/web-core/ui-data';
import { Input, InputNumber } from '@decor/web-core/ui-forms';
import { useEffect, useId, useState } from 'react';
import { TEXTS } from '../../texts';
import type { CheckoutState } from './checkout-state';

export const EMPTY_CART_LINK = '/inventory/BARS/Bar%20Front';

/** A line's quantity: the server call first; the local value changes only if above 0 and at most stock. */
function QuantityInput({ line, onError }: { line: CartLine; onError: () => void }) {
  const [value, setValue] = useState(line.qty);
  const [save, { isLoading }] = useSaveCartLineMutation();
  useEffect(() => setValue(line.qty), [line.qty]);
  const change = async (next: number | null) => {
    if (next === null) return;
    try {
      await save({ cartId: line.CartId, productId: line.id, qty: next, price: line.price }).unwrap();
      if (quantityAllowed(next, line.quantity)) setValue(next);
    } catch {
      onError();
    }
  };
  return (
    <InputNumber
      aria-label={`Quantity of ${line.name}`}
      min={1}
      max={Math.max(line.quantity, 1)}
      precision={0}
      value={value}
      disabled={isLoading}
      onChange={(next) => void change(typeof next === 'number' ? next : null)}
      style={{ width: 80 }}
    />
  );
}

/** The cart screen (spec §2): /checkout/cart for the active cart, /carts/{id} for any of the customer's carts. */
export function CartView({ cartId }: { cartId: string | undefined }) {
  const navigate = useNavigate();
  const location = useLocation();
  const nameId = useId();
  // Back from the summary (a short line to lower): the event details come along again.
  const carried = (location.state ?? null) as CheckoutState | null;
  const carriedFor = (id: string) => (carried?.cartId === id ? carried : {});
  const {
    data: cart,
    isLoading,
    isError,
    isFetching,
  } = useGetCartQuery({ id: cartId ?? '' }, { skip: !cartId });
  const [updateCart] = useUpdateCartMutation();
  const [removeLine] = useRemoveCartLineMutation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setName(cart?.cartName ?? ''), [cart?.cartName]);

  if (!cartId || isError)
    return <Alert type="error" showIcon title={TEXTS.cartLoadError} style={{ margin: 24 }} />;
  if (isLoading || !cart)
    return <Loading label="Loading the cart" size="large" style={{ display: 'block', margin: 48 }} />;

  const saveName = async () => {
    const trimmed = name.trim();
    if (!trimmed || trimmed === cart.cartName) return;
    try {
      await updateCart({ id: cart.id, cartName: trimmed }).unwrap();
      setError(null);
    } catch {
      setError(TEXTS.cartUpdateError);
    }
  };

  const columns: TableColumnsType<CartLine> = [
    {
      title: 'Product',
      dataIndex: 'name',
      render: (_v, line) => (
        <div>
          <strong>{line.name}</strong>
          <div style={{ color: '#6b5d52', fontSize: 12 }}>SKU: {line.id}</div>
        </div>
      ),
    },
    { title: 'Price', dataIndex: 'price', align: 'right', render: (v: number) => formatDollars(v) },
    {
      title: 'Quantity',
      dataIndex: 'qty',
      render: (_v, line) => <QuantityInput line={line} onError={() => setError(TEXTS.cartUpdateError)} />,
    },
    { title: 'Total', dataIndex: 'total', align: 'right', render: (v: number) => formatDollars(v) },
    {
      title: <span className="sr-only">Remove</span>,
      key: 'remove',
      render: (_v, line) => (
        <Button
          danger
          type="text"
          icon={<DeleteOutlined />}
          aria-label={`Remove ${line.name}`}
          onClick={async () => {
            try {
              await removeLine({ cartId: cart.id, cartProductId: line.CartProductId }).unwrap();
              setError(null);
            } catch {
              setError(TEXTS.cartUpdateError);
            }
          }}
        />
      ),
    },
  ];

  return (
    <section className="page" aria-labelledby="cart-title">
      <h1 id="cart-title" style={{ marginTop: 0 }}>
        {cart.isActive ? 'Your cart' : 'Cart'}
      </h1>
      <Flex vertical gap={4} style={{ maxWidth: 420, marginBottom: 16 }}>
        <label htmlFor={nameId}>Cart name</label>
        <Input
          id={nameId}
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          onBlur={saveName}
          onPressEnter={saveName}
        />
      </Flex>
      {error ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={error}
          style={{ marginBottom: 16 }}
          closable={{ onClose: () => setError(null), 'aria-label': 'Dismiss' }}
        />
      ) : null}
      {cart.CartProducts.length === 0 ? (
        <div style={{ padding: '32px 0', textAlign: 'center' }}>
          <p style={{ fontSize: 18 }}>{TEXTS.cartEmpty}</p>
          <Link to={EMPTY_CART_LINK}>Browse the inventory</Link>
        </div>
      ) : (
        <>
          <div style={{ overflowX: 'auto' }}>
            <Table<CartLine>
              rowKey="CartProductId"
              columns={columns}
              dataSource={cart.CartProducts}
              pagination={false}
              loading={isFetching}
              size="middle"
            />
          </div>
          <Flex justify="flex-end" align="center" gap={24} style={{ marginTop: 16 }} wrap>
            <strong style={{ fontSize: 18 }} data-testid="cart-total">
              Total: {formatDollars(cart.cartTotal)}
            </strong>
            {cart.isActive ? (
              <Button
                type="primary"
                size="large"
                onClick={() =>
                  navigate('/checkout/event', { state: { ...carriedFor(cart.id), cartId: cart.id } })
                }
              >
                Next
              </Button>
            ) : null}
          </Flex>
        </>
      )}
    </section>
  );
}
