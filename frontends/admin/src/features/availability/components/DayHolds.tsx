import type { AvailabilityCalendar } from '@decor/contracts/rules';
import { formatLongDate } from '@decor/contracts/rules';
import { Alert, Empty, Loading } from '@decor/web-core/ui';
import { Modal } from '@decor/web-core/ui-forms';
import { useGetDayHoldsQuery } from '../../../shared/api/availability/availability-api';
import { AVAILABILITY_TEXTS as T } from '../texts';
import { HoldsList } from './HoldsList';

/** A calendar cell opened: the orders that hold the product on that day. */
export function DayHolds({
  product,
  day,
  onClose,
}: {
  product: AvailabilityCalendar['products'][number];
  day: string;
  onClose: () => void;
}) {
  const holds = useGetDayHoldsQuery({ id: product.id, day });
  return (
    <Modal open title={T.holdsTitle(product.name, formatLongDate(day))} onCancel={onClose} footer={null}>
      {holds.isFetching && !holds.data ? <Loading label="Loading the orders" /> : null}
      {holds.isError ? <Alert type="error" showIcon role="alert" title={T.holdsError} /> : null}
      {holds.data && holds.data.length === 0 ? <Empty description={T.noHolds} /> : null}
      {holds.data && holds.data.length > 0 ? <HoldsList holds={holds.data} /> : null}
    </Modal>
  );
}
