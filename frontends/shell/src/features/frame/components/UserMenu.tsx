import { api, endSessionOnServer, signOut, useAppDispatch, useAppSelector } from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Dropdown, type MenuProps } from '@decor/web-core/ui-forms';
import { type ReactElement, useContext } from 'react';
import { type AppRoute, menuFor } from '../../../shared/access';
import { FrameRoutes } from './frame-routes';

/** The user menu by role (spec §2): the route table's entries the role may open, then Logout. */
export function userMenuItems(
  permissions: string,
  routes: readonly AppRoute[],
): { key: string; label: string }[] {
  return [...menuFor(permissions, routes), { key: 'logout', label: 'Logout' }];
}

export default function UserMenu({ children }: { children: ReactElement }) {
  const permissions = useAppSelector((s) => s.session.user?.permissions ?? '');
  const routes = useContext(FrameRoutes);
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
      menu={{ items: userMenuItems(permissions, routes), onClick }}
      placement="bottomRight"
    >
      {children}
    </Dropdown>
  );
}
