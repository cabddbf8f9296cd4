import { isStaff } from '@decor/web-core';
import { Link, useParams } from '@decor/web-core/router';
import { Alert, ArrowLeftOutlined, Flex, Loading } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import { Typography } from '@decor/web-core/ui-forms';
import { OrdersList } from '@decor/web-orders';
import type { ReactNode } from 'react';
import { useGetCompanyQuery, useGetUserQuery } from '../api/users-api';
import { addressOf, LABELS, personName, USERS_TEXTS } from '../texts';
import { Details } from './Details';
import { UserActions } from './UserActions';
import { StatusTag } from './UsersList';

export function BackToUsers() {
  return (
    <Link to="/admin/users">
      <ArrowLeftOutlined aria-hidden /> {USERS_TEXTS.backToUsers}
    </Link>
  );
}

/**
 * /admin/users/{id} (spec §2 Customer detail): parent company, display name, company, name, address
 * (the parent company's), phone, e-mail, the actions, and that user's orders.
 */
export function UserDetail() {
  const { id = '' } = useParams();
  const user = useGetUserQuery(id);
  const companyId = user.data?.CompanyId ?? null;
  const company = useGetCompanyQuery(companyId ?? '', { skip: !companyId });

  if (user.isLoading) return <Loading label="Loading" size="large" style={{ margin: 48 }} />;
  if (!user.data) {
    return (
      <section
        className="page"
        aria-label={USERS_TEXTS.customerDetails}
        style={{ padding: 'clamp(12px, 3vw, 32px)' }}
      >
        <BackToUsers />
        <Alert type="error" showIcon role="alert" title={USERS_TEXTS.userError} style={{ marginTop: 16 }} />
      </section>
    );
  }
  const shown = user.data;
  const staff = isStaff(shown.permissions);
  const parent = company.data;
  const rows: [string, ReactNode][] = staff
    ? [
        [LABELS.name, personName(shown)],
        [LABELS.email, shown.email],
        [LABELS.phone, shown.phone],
        ['Role', shown.permissions],
      ]
    : [
        [
          LABELS.parentCompany,
          companyId ? (
            <Link key="parent" to={`/admin/company/${encodeURIComponent(companyId)}`}>
              {parent ? parent.displayName || parent.name : (shown.ownCompany ?? companyId)}
            </Link>
          ) : null,
        ],
        [LABELS.displayName, shown.displayName],
        [LABELS.company, shown.ownCompany],
        [LABELS.name, personName(shown)],
        [LABELS.address, parent ? addressOf(parent) : null],
        [LABELS.phone, shown.phone],
        [LABELS.email, shown.email],
      ];

  return (
    <Flex vertical gap={16} className="page" style={{ padding: 'clamp(12px, 3vw, 32px)', width: '100%' }}>
      <BackToUsers />
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {shown.displayName || personName(shown)} <StatusTag active={shown.active} />
        </Typography.Title>
      </Flex>
      {shown.active ? null : <Alert type="warning" showIcon title={USERS_TEXTS.suspendedNotice} />}
      <Card title={staff ? USERS_TEXTS.adminDetails : USERS_TEXTS.customerDetails}>
        <Details rows={rows} />
        <div style={{ marginTop: 16 }}>
          <UserActions user={shown} />
        </div>
      </Card>
      {staff ? null : (
        <Card title={USERS_TEXTS.orders}>
          <OrdersList staff base="/admin/orders" userId={shown.id} embedded />
        </Card>
      )}
    </Flex>
  );
}
