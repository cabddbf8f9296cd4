import { Link } from '@decor/web-core/router';
import { Table, type TableColumnsType, Tag } from '@decor/web-core/ui-data';
import { useState } from 'react';
import type { SiteUser, UserKind, UserSearchField } from '../api/types';
import { useListUsersInfiniteQuery } from '../api/users-api';
import { LABELS, personName, USERS_TEXTS } from '../texts';
import { ListState, MoreRows, SearchBox, useDebounced } from './list-helpers';

export function StatusTag({ active }: { active: boolean }) {
  return active ? (
    <Tag color="green">{USERS_TEXTS.active}</Tag>
  ) : (
    <Tag color="red">{USERS_TEXTS.suspended}</Tag>
  );
}

const userLink = (user: SiteUser) => (
  <Link to={`/admin/users/${encodeURIComponent(user.id)}`}>{user.displayName || personName(user)}</Link>
);

/**
 * Customers or admins, 20 at a time with more on scroll, searched by a prefix of `searchField`;
 * `companyId` keeps one company's customers (the company page).
 */
export function UsersList({
  kind,
  companyId,
  searchField,
  searchLabel,
  errorMessage = USERS_TEXTS.usersError,
  label,
}: {
  kind: UserKind;
  companyId?: string;
  searchField: UserSearchField;
  searchLabel: string;
  errorMessage?: string;
  /** The table's accessible name. */
  label: string;
}) {
  const [draft, setDraft] = useState('');
  const search = useDebounced(draft);
  const { data, isLoading, isFetching, isError, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useListUsersInfiniteQuery({ kind, search, searchField, companyId });
  const users = data?.pages.flatMap((page) => page.items) ?? [];

  const columns: TableColumnsType<SiteUser> =
    kind === 'customer'
      ? [
          { key: 'company', title: LABELS.company, render: (_v, u) => u.ownCompany ?? '' },
          { key: 'displayName', title: LABELS.displayName, render: (_v, u) => userLink(u) },
          { key: 'name', title: LABELS.name, render: (_v, u) => personName(u) },
          { key: 'email', title: LABELS.email, dataIndex: 'email' },
          { key: 'phone', title: LABELS.phone, render: (_v, u) => u.phone ?? '' },
          { key: 'status', title: LABELS.status, render: (_v, u) => <StatusTag active={u.active} /> },
        ]
      : [
          { key: 'name', title: LABELS.name, render: (_v, u) => userLink(u) },
          { key: 'email', title: LABELS.email, dataIndex: 'email' },
          { key: 'phone', title: LABELS.phone, render: (_v, u) => u.phone ?? '' },
          { key: 'role', title: 'Role', dataIndex: 'permissions' },
          { key: 'status', title: LABELS.status, render: (_v, u) => <StatusTag active={u.active} /> },
        ];

  return (
    <>
      <SearchBox label={searchLabel} value={draft} onChange={setDraft} />
      <ListState
        isLoading={isLoading}
        isError={isError}
        empty={users.length === 0}
        errorMessage={errorMessage}
      />
      {users.length > 0 ? (
        <Table<SiteUser>
          rowKey="id"
          columns={columns}
          dataSource={users}
          pagination={false}
          scroll={{ x: 'max-content' }}
          aria-label={label}
        />
      ) : null}
      <MoreRows
        hasNextPage={!!hasNextPage}
        isFetching={isFetching}
        isFetchingNextPage={isFetchingNextPage}
        fetchNextPage={fetchNextPage}
      />
    </>
  );
}
