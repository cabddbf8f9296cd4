import {
  ACCEPTANCE_DEFAULTS,
  type AcceptanceView,
  EXTEND_OFFER_TEXTS,
  MAX_EXTEND_DAYS,
  type ShortLine,
} from '@decor/contracts/rules';
import { isApiError } from '@decor/web-core';
import { Alert } from '@decor/web-core/ui';
import { InputNumber, Modal } from '@decor/web-core/ui-forms';
import { useEffect, useId, useState } from 'react';
import { useExtendAcceptanceMutation, useShopAcceptanceSettingsQuery } from '../api/orders-api';
import { ShortLines } from './ShortLines';

interface Refusal {
  message: string;
  shortLines?: ShortLine[];
}

/** The shop's validity days (the period a new offer gets), within what one extension allows. */
const startingDays = (validityDays: number | undefined) =>
  Math.min(Math.max(validityDays ?? ACCEPTANCE_DEFAULTS.validityDays, 1), MAX_EXTEND_DAYS);

/**
 * Staff's extension of an offer (issue 30): one dialog asking for the days from today (the shop's
 * validity days to start with), then `POST /estimate/:id/acceptance/extend`. A refusal stays in the
 * dialog: the server's reason, or every line that no longer fits its dates (a lapsed offer's units
 * were released and are booked again first).
 */
export function ExtendOffer({
  estimateId,
  open,
  onClose,
  onExtended,
}: {
  estimateId: string;
  open: boolean;
  onClose: () => void;
  onExtended: (view: AcceptanceView) => void;
}) {
  const settings = useShopAcceptanceSettingsQuery(undefined, { skip: !open });
  const [extend, { isLoading }] = useExtendAcceptanceMutation();
  const [days, setDays] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const field = useId();
  const help = useId();
  const validityDays = settings.data?.validityDays;

  // Each opening starts afresh from the shop's validity days (once known), without the last refusal.
  useEffect(() => {
    if (open) {
      setDays(startingDays(validityDays));
      setRefusal(null);
    }
  }, [open, validityDays]);

  const submit = async () => {
    if (days === null || !Number.isInteger(days) || days < 1 || days > MAX_EXTEND_DAYS) {
      setRefusal({ message: EXTEND_OFFER_TEXTS.daysInvalid });
      return;
    }
    setRefusal(null);
    try {
      const view = await extend({ id: estimateId, days }).unwrap();
      onExtended(view);
    } catch (failed) {
      if (isApiError(failed) && failed.status >= 400 && failed.status < 500 && failed.status !== 408)
        setRefusal({ message: failed.message, shortLines: failed.shortLines });
      else setRefusal({ message: EXTEND_OFFER_TEXTS.failed });
    }
  };

  return (
    <Modal
      open={open}
      title={EXTEND_OFFER_TEXTS.title}
      okText={EXTEND_OFFER_TEXTS.confirm}
      cancelText={EXTEND_OFFER_TEXTS.keep}
      okButtonProps={{ loading: isLoading }}
      onCancel={onClose}
      onOk={() => void submit()}
      destroyOnHidden
    >
      <div style={{ display: 'grid', gap: 8 }}>
        <label htmlFor={field} style={{ fontWeight: 500 }}>
          {EXTEND_OFFER_TEXTS.days}
        </label>
        <InputNumber
          id={field}
          aria-describedby={help}
          min={1}
          max={MAX_EXTEND_DAYS}
          precision={0}
          value={days}
          onChange={(value) => setDays(typeof value === 'number' ? value : null)}
          onPressEnter={() => void submit()}
          style={{ width: 140 }}
        />
        <span id={help} style={{ color: '#6b5d52' }}>
          {EXTEND_OFFER_TEXTS.daysHelp}
        </span>
        {refusal ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={refusal.shortLines?.length ? EXTEND_OFFER_TEXTS.failed : refusal.message}
            description={refusal.shortLines?.length ? <ShortLines lines={refusal.shortLines} /> : undefined}
          />
        ) : null}
      </div>
    </Modal>
  );
}
