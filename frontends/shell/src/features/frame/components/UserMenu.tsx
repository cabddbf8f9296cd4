import { api, endSessionOnServer, signOut, useAppDispatch, useAppSelector } from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Dropdown, type MenuProps } from '@decor/web-core/ui-forms';
import type { ReactElement } from 'react';
import { menuFor } from '../../../access';

/** The user menu by role (spec §2): the route table's entries the role may open, then Logout. */
export function userMenuItems(permissions: string): { key: string; label: string }[] {
  return [...menuFor(permissions), { key: 'logout', label: 'Logout' }];
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
