import { renewQboSession, useAppDispatch, useAppSelector, useQboConnect } from '@decor/web-core';
import { Alert, Button, Flex, Space } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import type { QboStatus } from '../../../shared/api/sync/types';
import { formatWhen, SYNC_TEXTS } from '../texts';

/**
 * Who the product is connected to in QuickBooks, with Connect (not connected) or Renew. The
 * renewal's outcome is told by the QuickBooks session banner above (one place for that message).
 */
export function ConnectionCard({ status, onRenewed }: { status: QboStatus; onRenewed: () => void }) {
  const dispatch = useAppDispatch();
  const renewing = useAppSelector((s) => s.qboSession.renewal === 'pending');
  const { connect, connecting, error: connectError } = useQboConnect();

  const renew = async () => {
    await dispatch(renewQboSession());
    onRenewed();
  };

  return (
    <Card title={SYNC_TEXTS.connection}>
      <Flex justify="space-between" align="flex-start" wrap gap={16}>
        {status.connected ? (
          <Space orientation="vertical" size={4}>
            <strong>{SYNC_TEXTS.connectedTo(status.companyName)}</strong>
            {status.realmId ? <span>{SYNC_TEXTS.realmId(status.realmId)}</span> : null}
            {status.accessTokenExpiresAt ? (
              <span>{SYNC_TEXTS.tokenValidUntil(formatWhen(status.accessTokenExpiresAt))}</span>
            ) : null}
          </Space>
        ) : (
          <strong>{SYNC_TEXTS.notConnected}</strong>
        )}
        {status.connected ? (
          <Button loading={renewing} onClick={() => void renew()}>
            {SYNC_TEXTS.renew}
          </Button>
        ) : (
          <Button type="primary" loading={connecting} onClick={() => void connect()}>
            {SYNC_TEXTS.connect}
          </Button>
        )}
      </Flex>
      {connectError ? <Alert type="error" showIcon title={connectError} style={{ marginTop: 12 }} /> : null}
    </Card>
  );
}
