import { ACCEPTABLE_STATES, orderStatusText } from '@decor/contracts/rules';
import { Tag } from '@decor/web-core/ui-data';
import { ACCEPT_TEXTS, STATE_TEXT } from '../acceptance-texts';
import { useGetAcceptanceQuery } from '../api/orders-api';
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

/**
 * The list's mark of an estimate's acceptance (issue 30): what waits for the customer ('Waiting for
 * your acceptance'), what was accepted, what can no longer be accepted ('Expired', which staff may
 * extend). From the list answer when it carries it; else, for a
 * customer's Open estimate, from its acceptance (the order page reads the same cached answer).
 */
export function AcceptanceTag({
  order,
  staff,
}: {
  order: Pick<Order, 'id' | 'status' | 'hasBeenModified' | 'acceptance'>;
  staff: boolean;
}) {
  const ask = !order.acceptance && !staff && order.status === 'Open' && !order.hasBeenModified;
  const { data } = useGetAcceptanceQuery(order.id, { skip: !ask });
  const state = order.acceptance?.state ?? (ask ? data?.state : undefined);
  if (!state || state === 'not-offered') return null;
  const color = ACCEPTABLE_STATES.has(state) ? 'purple' : state === 'accepted' ? 'green' : 'default';
  return (
    <Tag color={color} data-testid="acceptance-tag">
      {state === 'expired' ? ACCEPT_TEXTS.expiredMark : STATE_TEXT[state][staff ? 'staff' : 'customer']}
    </Tag>
  );
}
