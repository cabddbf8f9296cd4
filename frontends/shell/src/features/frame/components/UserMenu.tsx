import {
  api,
  endSessionOnServer,
  isCustomer,
  isStaff,
  signOut,
  useAppDispatch,
  useAppSelector,
} from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Dropdown, type MenuProps } from '@decor/web-core/ui-forms';
import type { ReactElement } from 'react';

/** The user menu by role (spec §2): Profile, then Carts/Orders/Checkout or Users/Orders/Availability, then Logout. */
export function userMenuItems(permissions: string): { key: string; label: string }[] {
  const items = [{ key: '/profile', label: 'Profile' }];
  if (isCustomer(permissions)) {
    items.push(
      { key: '/carts', label: 'Carts' },
      { key: '/orders', label: 'Orders' },
      { key: '/checkout/cart', label: 'Checkout' },
    );
  } else if (isStaff(permissions)) {
    items.push(
      { key: '/admin/users', label: 'Users' },
      { key: '/orders', label: 'Orders' },
      { key: '/admin/availability', label: 'Availability' },
    );
  }
  items.push({ key: 'logout', label: 'Logout' });
  return items;
}

export default function UserMenu({ children }: { children: ReactElement }) {
  const permissions = useAppSelector((s) => s.session.user?.permissions ?? '');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') {
      void endSessionOnServer();
      dispatch(signOut());
      dispatch(api.util.resetApiState());
      navigate('/');
      return;
    }
    navigate(key);
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{ items: userMenuItems(permissions), onClick }}
      placement="bottomRight"
    >
      {children}
    </Dropdown>
  );
}
