import { formatDollars, useActiveCart } from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Button, ShoppingCartOutlined } from '@decor/web-core/ui';

/**
 * Customers' floating cart total (spec §2): the total with a dollar sign; opens /checkout/cart. The
 * active cart query follows every cart change (nothing for visitors and staff).
 */
export function CartBadge() {
  const navigate = useNavigate();
  const { cart } = useActiveCart();
  if (!cart) return null;
  const total = formatDollars(cart.cartTotal);
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
