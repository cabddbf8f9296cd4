import { orderStatusText } from '@decor/contracts/rules';
import { Tag } from '@decor/web-core/ui-data';
import type { Order, OrderStatus } from '../types';

const COLORS: Record<OrderStatus, string> = {
  Pending: 'gold',
  Open: 'blue',
  Closed: 'default',
  Completed: 'green',
  Voided: 'red',
};

type Shown = Pick<Order, 'status' | 'hasBeenModified' | 'isInQbo'>;

/** Spec §4 'Pending Approval' / 'Pending Update': contracts' one rule, as the e-mails say it. */
export const statusText = (order: Shown, staff: boolean): string =>
  orderStatusText(order, staff ? 'staff' : 'customer');

export function StatusTag({ order, staff }: { order: Shown; staff: boolean }) {
  const text = statusText(order, staff);
  return (
    <Tag color={text !== order.status ? 'orange' : (COLORS[order.status as OrderStatus] ?? 'default')}>
      {text}
    </Tag>
  );
}
