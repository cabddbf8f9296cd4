import { isSuperadmin, useAppSelector } from '@decor/web-core';
import { Button, Flex, PlusOutlined } from '@decor/web-core/ui';
import { Tabs } from '@decor/web-core/ui-data';
import { Typography } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import { USERS_TEXTS } from '../texts';
import { CompaniesList } from './CompaniesList';
import { CreateUserDialog } from './CreateUserDialog';
import { ImportUsersDialog } from './ImportUsersDialog';
import { UsersList } from './UsersList';

type Tab = 'customers' | 'companies' | 'admins';

/**
 * /admin/users (spec §2 Admin users): tabs Customers, Companies and, for a superadmin only, Admins,
 * each with its search box; Create User and Import User open their dialogs.
 */
export function UsersScreen() {
  const superadmin = useAppSelector((s) => isSuperadmin(s.session.user?.permissions));
  const [tab, setTab] = useState<Tab>('customers');
  const [dialog, setDialog] = useState<'create' | 'import' | null>(null);

  const tabs: { key: Tab; label: string }[] = [
    { key: 'customers', label: USERS_TEXTS.customers },
    { key: 'companies', label: USERS_TEXTS.companies },
    ...(superadmin ? [{ key: 'admins' as const, label: USERS_TEXTS.admins }] : []),
  ];

  return (
    <Flex vertical gap={8} className="page" style={{ padding: 'clamp(12px, 3vw, 32px)', width: '100%' }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 30 }}>
          {USERS_TEXTS.title}
        </Typography.Title>
        <Flex gap={8} wrap>
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setDialog('create')}>
            {USERS_TEXTS.createUser}
          </Button>
          <Button onClick={() => setDialog('import')}>{USERS_TEXTS.importUser}</Button>
        </Flex>
      </Flex>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Tab)}
        items={tabs.map(({ key, label }) => ({
          key,
          label,
          children:
            key !== tab ? null : key === 'companies' ? (
              <CompaniesList />
            ) : key === 'admins' ? (
              <UsersList
                kind="admin"
                searchField="email"
                searchLabel={USERS_TEXTS.searchAdmins}
                label={USERS_TEXTS.admins}
              />
            ) : (
              <UsersList
                kind="customer"
                searchField="ownCompany"
                searchLabel={USERS_TEXTS.searchCustomers}
                label={USERS_TEXTS.customers}
              />
            ),
        }))}
      />
      <CreateUserDialog open={dialog === 'create'} onClose={() => setDialog(null)} />
      <ImportUsersDialog open={dialog === 'import'} onClose={() => setDialog(null)} />
    </Flex>
  );
}
