import { Link } from '@decor/web-core/router';
import { Table, type TableColumnsType } from '@decor/web-core/ui-data';
import { useState } from 'react';
import type { Company } from '../api/types';
import { useListCompaniesInfiniteQuery } from '../api/users-api';
import { addressOf, LABELS, USERS_TEXTS } from '../texts';
import { ListState, MoreRows, SearchBox, useDebounced } from './list-helpers';

/** The companies, in display-name order, searched by name prefix; 20 at a time, more on scroll. */
export function CompaniesList() {
  const [draft, setDraft] = useState('');
  const search = useDebounced(draft);
  const { data, isLoading, isFetching, isError, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useListCompaniesInfiniteQuery(search);
  const companies = data?.pages.flatMap((page) => page.items) ?? [];

  const columns: TableColumnsType<Company> = [
    {
      key: 'company',
      title: LABELS.company,
      render: (_v, c) => (
        <Link to={`/admin/company/${encodeURIComponent(c.id)}`}>{c.displayName || c.name}</Link>
      ),
    },
    { key: 'address', title: LABELS.address, render: (_v, c) => addressOf(c) },
    { key: 'phone', title: LABELS.phone, render: (_v, c) => c.phone ?? '' },
  ];

  return (
    <>
      <SearchBox label={USERS_TEXTS.searchCompanies} value={draft} onChange={setDraft} />
      <ListState
        isLoading={isLoading}
        isError={isError}
        empty={companies.length === 0}
        errorMessage={USERS_TEXTS.companiesError}
      />
      {companies.length > 0 ? (
        <Table<Company>
          rowKey="id"
          columns={columns}
          dataSource={companies}
          pagination={false}
          scroll={{ x: 'max-content' }}
          aria-label={USERS_TEXTS.companies}
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
