import { fetchCartTotal, formatDollars, isCustomer, useAppDispatch, useAppSelector } from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Button, ShoppingCartOutlined } from '@decor/web-core/ui';
import { useEffect } from 'react';

/** Customers' floating cart total (spec §2): the total with a dollar sign; opens /checkout/cart. */
export function CartBadge() {
  const user = useAppSelector((s) => s.session.user);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const cartId = user?.cart?.id;
  useEffect(() => {
    if (cartId) void dispatch(fetchCartTotal(cartId));
  }, [cartId, dispatch]);
  if (!user || !isCustomer(user.permissions) || !user.cart) return null;
  const total = formatDollars(user.cart.cartTotal);
  return (
    <Button
      type="primary"
      shape="round"
      size="large"
      icon={<ShoppingCartOutlined />}
      onClick={() => navigate('/checkout/cart')}
      aria-label={`Cart total ${total}, open the cart`}
      data-testid="cart-badge"
      style={{
        position: 'fixed',
        right: 20,
        bottom: 24,
        zIndex: 1000,
        boxShadow: '0 4px 14px rgba(0,0,0,0.25)',
      }}
    >
      {total}
    </Button>
  );
}
