import { useNavigate, useParams } from '@decor/web-core/router';
import { Alert, Button, Flex, Loading } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import { Modal, Typography } from '@decor/web-core/ui-forms';
import { useState } from 'react';
import { useDeleteCompanyMutation, useGetCompanyQuery } from '../api/users-api';
import { addressOf, errorText, LABELS, USERS_TEXTS } from '../texts';
import { Details } from './Details';
import { EditDialog } from './EditDialog';
import { BackToUsers } from './UserDetail';
import { UsersList } from './UsersList';

/**
 * /admin/company/{id} (spec §2 Company detail): name, display name, address, phone, and its customers;
 * Edit, and Delete after confirming (the server refuses while customers belong to it, and says so).
 */
export function CompanyDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const company = useGetCompanyQuery(id);
  const [deleteCompany, deleting] = useDeleteCompanyMutation();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const remove = async () => {
    setDeleteError(null);
    try {
      await deleteCompany(id).unwrap();
      setConfirming(false);
      navigate('/admin/users', { replace: true });
    } catch (failure) {
      setConfirming(false);
      setDeleteError(errorText(failure));
    }
  };

  if (company.isLoading) return <Loading label="Loading" size="large" style={{ margin: 48 }} />;
  if (!company.data) {
    return (
      <section
        className="page"
        aria-label={USERS_TEXTS.companyDetails}
        style={{ padding: 'clamp(12px, 3vw, 32px)' }}
      >
        <BackToUsers />
        <Alert
          type="error"
          showIcon
          role="alert"
          title={USERS_TEXTS.companyError}
          style={{ marginTop: 16 }}
        />
      </section>
    );
  }
  const shown = company.data;
  return (
    <Flex vertical gap={16} className="page" style={{ padding: 'clamp(12px, 3vw, 32px)', width: '100%' }}>
      <BackToUsers />
      <Typography.Title level={2} style={{ margin: 0 }}>
        {shown.displayName || shown.name}
      </Typography.Title>
      <Card
        title={USERS_TEXTS.companyDetails}
        extra={
          <Flex gap={8}>
            <Button onClick={() => setEditing(true)}>{USERS_TEXTS.edit}</Button>
            <Button danger onClick={() => setConfirming(true)}>
              {USERS_TEXTS.delete}
            </Button>
          </Flex>
        }
      >
        {deleteError ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={deleteError}
            closable={{ onClose: () => setDeleteError(null), 'aria-label': 'Dismiss' }}
            style={{ marginBottom: 16 }}
          />
        ) : null}
        <Details
          rows={[
            [LABELS.name, shown.name],
            [LABELS.displayName, shown.displayName],
            [LABELS.address, addressOf(shown)],
            [LABELS.phone, shown.phone],
          ]}
        />
      </Card>
      <EditDialog kind="company" record={shown} open={editing} onClose={() => setEditing(false)} />
      <Modal
        open={confirming}
        title={USERS_TEXTS.deleteCompanyTitle}
        okText={USERS_TEXTS.delete}
        cancelText={USERS_TEXTS.cancel}
        okButtonProps={{ danger: true, loading: deleting.isLoading }}
        onCancel={() => setConfirming(false)}
        onOk={() => void remove()}
      >
        <p>{USERS_TEXTS.deleteQuestion(shown.displayName || shown.name)}</p>
      </Modal>
      <Card title={USERS_TEXTS.customers}>
        <UsersList
          kind="customer"
          companyId={shown.id}
          searchField="displayName"
          searchLabel={USERS_TEXTS.searchCompanyCustomers}
          errorMessage={USERS_TEXTS.customersError}
          label={`${USERS_TEXTS.customers} of ${shown.displayName || shown.name}`}
        />
      </Card>
    </Flex>
  );
}
