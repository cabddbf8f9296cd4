import {
  type Cart,
  formatDollars,
  useCreateCartMutation,
  useDeleteCartMutation,
  useListCartsInfiniteQuery,
  useUpdateCartMutation,
} from '@decor/web-core';
import { Link, Route, Routes, useParams } from '@decor/web-core/router';
import { Alert, Button, Flex, Loading, PlusOutlined } from '@decor/web-core/ui';
import { Card, Popconfirm, Tag } from '@decor/web-core/ui-data';
import { Input } from '@decor/web-core/ui-forms';
import { useEffect, useRef, useState } from 'react';
import { CartView } from '../../../shared/cart/CartView';
import { TEXTS } from '../../../texts';

function CartCard({ cart, onError }: { cart: Cart; onError: (text: string) => void }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(cart.cartName);
  const [update, { isLoading: updating }] = useUpdateCartMutation();
  const [remove, { isLoading: deleting }] = useDeleteCartMutation();

  const rename = async () => {
    const trimmed = name.trim();
    setRenaming(false);
    if (!trimmed || trimmed === cart.cartName) return;
    try {
      await update({ id: cart.id, cartName: trimmed }).unwrap();
    } catch {
      setName(cart.cartName);
      onError(TEXTS.cartNameError);
    }
  };

  const activate = async () => {
    try {
      // Set Active invalidates the active cart query: the badge and the checkout follow.
      await update({ id: cart.id, isActive: true }).unwrap();
    } catch {
      onError(TEXTS.cartsUpdateError);
    }
  };

  return (
    <Card
      title={
        renaming ? (
          <Input
            autoFocus
            aria-label="Cart name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            onBlur={rename}
            onPressEnter={rename}
          />
        ) : (
          <Link to={`/carts/${encodeURIComponent(cart.id)}`}>{cart.cartName}</Link>
        )
      }
      extra={cart.isActive ? <Tag color="green">Active</Tag> : null}
      actions={[
        <Button
          key="rename"
          type="link"
          onClick={() => setRenaming(true)}
          aria-label={`Rename ${cart.cartName}`}
        >
          Rename
        </Button>,
        cart.isActive ? null : (
          <Button key="activate" type="link" onClick={activate} loading={updating}>
            Set Active
          </Button>
        ),
        cart.isActive ? null : (
          <Popconfirm
            key="delete"
            title="Delete this cart?"
            okText="Delete"
            onConfirm={async () => {
              try {
                await remove(cart.id).unwrap();
              } catch {
                onError(TEXTS.cartDeleteError);
              }
            }}
          >
            <Button type="link" danger loading={deleting} aria-label={`Delete ${cart.cartName}`}>
              Delete
            </Button>
          </Popconfirm>
        ),
      ].filter(Boolean)}
    >
      <p style={{ margin: 0 }}>
        {cart.CartProducts.length} {cart.CartProducts.length === 1 ? 'item' : 'items'} ·{' '}
        <strong>{formatDollars(cart.cartTotal)}</strong>
      </p>
      <p style={{ margin: '4px 0 0', color: '#6b5d52', fontSize: 13 }}>
        Created {new Date(cart.createdAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}
      </p>
    </Card>
  );
}

/** /carts: the customer's carts as cards, 20 at a time with infinite scroll (spec §2). */
function CartList() {
  const { data, isLoading, isError, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useListCartsInfiniteQuery();
  const [create, { isLoading: creating }] = useCreateCartMutation();
  const [error, setError] = useState<string | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const carts = data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="page" aria-labelledby="carts-title">
      <Flex justify="space-between" align="center" wrap gap={12}>
        <h1 id="carts-title" style={{ margin: 0 }}>
          Carts
        </h1>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          loading={creating}
          onClick={async () => {
            try {
              await create({}).unwrap();
            } catch {
              setError(TEXTS.cartCreateError);
            }
          }}
        >
          Create Cart
        </Button>
      </Flex>
      {error ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={error}
          style={{ margin: '16px 0' }}
          closable={{ onClose: () => setError(null), 'aria-label': 'Dismiss' }}
        />
      ) : null}
      {isError ? (
        <Alert type="error" showIcon title={TEXTS.cartsLoadError} style={{ margin: '16px 0' }} />
      ) : null}
      {isLoading ? (
        <Loading label="Loading your carts" size="large" style={{ display: 'block', margin: 48 }} />
      ) : null}
      <div
        style={{
          display: 'grid',
          gap: 16,
          marginTop: 20,
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 260px), 1fr))',
        }}
      >
        {carts.map((cart) => (
          <CartCard key={cart.id} cart={cart} onError={setError} />
        ))}
      </div>
      <div ref={sentinel} style={{ height: 1 }} />
      {hasNextPage ? (
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Button onClick={() => fetchNextPage()} loading={isFetchingNextPage}>
            Load more
          </Button>
        </Flex>
      ) : null}
    </section>
  );
}

function OneCart() {
  const { cartId } = useParams();
  return <CartView cartId={cartId} />;
}

/** /carts and /carts/{id} (customers). */
export default function Carts() {
  return (
    <Routes>
      <Route path=":cartId" element={<OneCart />} />
      <Route path="*" element={<CartList />} />
    </Routes>
  );
}
