import { Tag } from '@decor/web-core/ui-data';
import { TEXTS } from '../texts';
import type { Order, OrderStatus } from '../types';

const COLORS: Record<OrderStatus, string> = {
  Pending: 'gold',
  Open: 'blue',
  Closed: 'default',
  Completed: 'green',
  Voided: 'red',
};

/** Spec §4: a modified order reads 'Pending Approval' to customers, 'Pending Update' to staff. */
export function statusText(order: Pick<Order, 'status' | 'hasBeenModified'>, staff: boolean): string {
  if (order.hasBeenModified) return staff ? TEXTS.pendingUpdate : TEXTS.pendingApproval;
  return order.status;
}

export function StatusTag({
  order,
  staff,
}: {
  order: Pick<Order, 'status' | 'hasBeenModified'>;
  staff: boolean;
}) {
  return (
    <Tag color={order.hasBeenModified ? 'orange' : (COLORS[order.status as OrderStatus] ?? 'default')}>
      {statusText(order, staff)}
    </Tag>
  );
}
