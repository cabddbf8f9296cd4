import { ORDER_STATUSES } from '@decor/contracts/rules';
import {
  formatDollars,
  formatLongDate,
  SEARCH_DELAY_MS,
  useBottomSentinel,
  useDebounced,
} from '@decor/web-core';
import { Link } from '@decor/web-core/router';
import { Alert, Button, Flex, Loading } from '@decor/web-core/ui';
import { Table, type TableColumnsType, Tabs } from '@decor/web-core/ui-data';
import { Input, Select } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import { ACCEPT_TEXTS, ACCEPTANCE_FILTER_OPTIONS } from '../acceptance-texts';
import { useListOrdersInfiniteQuery } from '../api/orders-api';
import { TEXTS } from '../texts';
import type { AcceptanceFilter, Order, OrderFilter, OrderType } from '../types';
import { AcceptanceTag, StatusTag } from './status';

export interface OrdersListProps {
  staff: boolean;
  /** Where the order screens live: '/orders' or '/admin/orders'. */
  base: string;
  /** Only this user's orders (a customer's page in the back office). */
  userId?: string;
  /** Without the 'Orders' heading (embedded in another page). */
  embedded?: boolean;
}

function OrderTable({
  type,
  filter,
  acceptance,
  staff,
  base,
  userId,
}: {
  type: OrderType;
  filter: OrderFilter;
  acceptance: AcceptanceFilter;
  staff: boolean;
  base: string;
  userId?: string;
}) {
  const [draft, setDraft] = useState('');
  const search = useDebounced(draft, SEARCH_DELAY_MS);
  const { data, isLoading, isFetching, isError, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useListOrdersInfiniteQuery({ type, filter, search, userId, ...(staff ? { acceptance } : {}) });
  const orders = data?.pages.flatMap((page) => page.items) ?? [];
  const sentinel = useBottomSentinel(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, !!hasNextPage && !isFetching);
  const label = type === 'estimate' ? TEXTS.searchEstimate : TEXTS.searchInvoice;

  const columns: TableColumnsType<Order> = [
    {
      key: 'number',
      title: type === 'estimate' ? 'Estimate #' : 'Invoice #',
      render: (_v, order) => (
        <Link to={`${base}/${type}/${encodeURIComponent(order.id)}`}>{order.DocNumber}</Link>
      ),
    },
    ...(staff
      ? [
          {
            key: 'customer',
            title: 'Customer/Company',
            render: (_v: unknown, order: Order) => (
              <Link to={`/admin/users/${encodeURIComponent(order.UserId)}`}>
                {order.User?.displayName}
                {order.User?.ownCompany ? ` / ${order.User.ownCompany}` : ''}
              </Link>
            ),
          },
        ]
      : []),
    { key: 'group', title: 'Group Name', render: (_v, order) => order.groupName ?? '' },
    { key: 'event', title: 'Event Date', render: (_v, order) => formatLongDate(order.eventDate) },
    {
      key: 'status',
      title: 'Status',
      render: (_v, order) => (
        <>
          <StatusTag order={order} staff={staff} />
          {type === 'estimate' ? <AcceptanceTag order={order} staff={staff} /> : null}
        </>
      ),
    },
    { key: 'total', title: 'Total', align: 'right', render: (_v, order) => formatDollars(order.total) },
  ];

  return (
    <>
      <Input.Search
        aria-label={label}
        placeholder={label}
        allowClear
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        style={{ maxWidth: 320, marginBottom: 16 }}
      />
      {isError ? <Alert type="error" showIcon role="alert" title={TEXTS.listError} /> : null}
      {isLoading ? (
        <Loading label="Loading orders" size="large" style={{ display: 'block', margin: 48 }} />
      ) : null}
      {!isLoading && !isError && orders.length === 0 ? <p>{TEXTS.nothingFound}</p> : null}
      {orders.length > 0 ? (
        <Table<Order>
          rowKey="id"
          columns={columns}
          dataSource={orders}
          pagination={false}
          scroll={{ x: 'max-content' }}
          aria-label={type === 'estimate' ? TEXTS.estimates : TEXTS.invoices}
        />
      ) : null}
      <div ref={sentinel} data-testid="orders-bottom" style={{ height: 1 }} />
      {hasNextPage ? (
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Button onClick={() => fetchNextPage()} loading={isFetchingNextPage}>
            Load more
          </Button>
        </Flex>
      ) : null}
    </>
  );
}

/**
 * The orders list (spec §2): filter, Estimates / Invoices tabs, search, 20 at a time. Staff also
 * filter the estimates by where their acceptance stands (issue 30).
 */
export function OrdersList({ staff, base, userId, embedded }: OrdersListProps) {
  const [type, setType] = useState<OrderType>('estimate');
  const [filter, setFilter] = useState<OrderFilter>('all');
  const [acceptance, setAcceptance] = useState<AcceptanceFilter>('all');
  const filters: { value: OrderFilter; label: string }[] = [
    { value: 'all', label: 'All' },
    ...ORDER_STATUSES.map((status) => ({ value: status.toLowerCase() as OrderFilter, label: status })),
    { value: 'hasBeenModified', label: staff ? TEXTS.pendingUpdate : TEXTS.pendingApproval },
  ];
  return (
    <section
      className={embedded ? undefined : 'page'}
      aria-label={embedded ? TEXTS.heading : undefined}
      aria-labelledby={embedded ? undefined : 'orders-title'}
    >
      <Flex justify="space-between" align="center" wrap gap={12}>
        {embedded ? null : (
          <h1 id="orders-title" style={{ margin: 0 }}>
            {TEXTS.heading}
          </h1>
        )}
        <Flex gap={12} wrap>
          {staff && type === 'estimate' ? (
            <Select<AcceptanceFilter>
              aria-label={ACCEPT_TEXTS.filter}
              prefix={ACCEPT_TEXTS.filterPrefix}
              value={acceptance}
              onChange={setAcceptance}
              options={ACCEPTANCE_FILTER_OPTIONS}
              style={{ minWidth: 240 }}
            />
          ) : null}
          <Select<OrderFilter>
            aria-label={TEXTS.filter}
            value={filter}
            onChange={setFilter}
            options={filters}
            style={{ minWidth: 180 }}
          />
        </Flex>
      </Flex>
      <Tabs
        activeKey={type}
        onChange={(key) => setType(key as OrderType)}
        items={(['estimate', 'invoice'] as const).map((key) => ({
          key,
          label: key === 'estimate' ? TEXTS.estimates : TEXTS.invoices,
          children:
            key === type ? (
              <OrderTable
                type={key}
                filter={filter}
                acceptance={acceptance}
                staff={staff}
                base={base}
                userId={userId}
              />
            ) : null,
        }))}
      />
    </section>
  );
}
