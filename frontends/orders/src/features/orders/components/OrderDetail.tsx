import {
  DEPOSIT_ON_VOID_TEXTS,
  type DepositOnVoid,
  EVENT_FIELD_SPECS,
  type ShortLine,
  subRentalText,
  WILL_CALL_FIELD_SPECS,
} from '@decor/contracts/rules';
import { isApiError, QboSessionBanner, useActiveCart, useAppDispatch } from '@decor/web-core';
import { Link } from '@decor/web-core/router';
import { Alert, Button, DownOutlined, Flex, Loading } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import {
  Dropdown,
  Form,
  type FormInstance,
  type MenuProps,
  Modal,
  Radio,
  Tooltip,
} from '@decor/web-core/ui-forms';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import {
  type OrderChanges,
  ordersApi,
  useCopyCartMutation,
  useGetAcceptanceQuery,
  useGetOrderQuery,
  useLinkedInvoicesQuery,
  useRequestInvoiceMutation,
  useSyncToQboMutation,
  useUpdateOrderMutation,
} from '../api/orders-api';
import { qboStatusText, TEXTS } from '../texts';
import type { ActionDecision, ActionName, Order, OrderType } from '../types';
import { AcceptanceSummary } from './AcceptanceSummary';
import { CartCard, type DraftLine, draftOf, linesChanged } from './CartCard';
import { changedFields, DetailsTable, FieldItem, type FormValues, hasWillCall, toForm } from './fields';
import { ShortLines } from './ShortLines';
import { StatusTag } from './status';
import { useFlash } from './use-flash';

export interface OrderDetailProps {
  type: OrderType;
  id: string;
  staff: boolean;
  base: string;
}

/** After a QuickBooks send/update (202, queued): the order is read again this often until it is done. */
export const QBO_POLL_MS = 2000;
const QBO_POLL_LIMIT_MS = 60_000;

/** A QuickBooks session refusal shows the session banner, not an error of its own. */
const isQboSession = (error: unknown) => isApiError(error) && !!error.qboSessionExpired;

function decision(order: Order, name: ActionName): ActionDecision {
  return order.actions?.[name] ?? { allowed: false };
}

function Linked({ order, type, base }: { order: Order; type: OrderType; base: string }) {
  const isEstimateWithInvoice = type === 'estimate' && !!order.hasInvoice;
  const invoices = useLinkedInvoicesQuery(order.id, { skip: !isEstimateWithInvoice });
  if (type === 'invoice' && order.EstimateId) {
    return (
      <p style={{ margin: 0 }}>
        From <Link to={`${base}/estimate/${encodeURIComponent(order.EstimateId)}`}>its estimate</Link>
      </p>
    );
  }
  if (!isEstimateWithInvoice) return null;
  if (invoices.isError) return <Alert type="error" showIcon role="alert" title={TEXTS.invoiceRequestError} />;
  const invoice = invoices.data?.[0];
  if (!invoice) return null;
  return (
    <p style={{ margin: 0 }}>
      Invoice <Link to={`${base}/invoice/${encodeURIComponent(invoice.id)}`}>#{invoice.DocNumber}</Link>
    </p>
  );
}

function OptionLabel({ text, decision: d }: { text: string; decision: ActionDecision }): ReactNode {
  if (d.allowed || !d.reason) return text;
  return (
    <Tooltip title={d.reason} placement="left">
      <span>{text}</span>
    </Tooltip>
  );
}

/** /orders/{estimate|invoice}/{id} (spec §2 Order detail). */
export function OrderDetail({ type, id, staff, base }: OrderDetailProps) {
  // Set while a QuickBooks send/update is queued: the order is polled until it is in QuickBooks, unmodified.
  const [qboSince, setQboSince] = useState<number | null>(null);
  const { data, isLoading, isError } = useGetOrderQuery(
    { type, id },
    { pollingInterval: qboSince === null ? 0 : QBO_POLL_MS },
  );
  const dispatch = useAppDispatch();
  const synced = !!data && data.order.isInQbo && !data.order.hasBeenModified;
  useEffect(() => {
    if (qboSince === null) return;
    if (synced || Date.now() - qboSince > QBO_POLL_LIMIT_MS) {
      setQboSince(null);
      // The lists show the new state too.
      if (synced) dispatch(ordersApi.util.invalidateTags([{ type: 'OrderList', id: 'LIST' }]));
    }
  }, [qboSince, synced, dispatch]);
  const activeCartId = useActiveCart().cart?.id;
  const [updateOrder, { isLoading: updating }] = useUpdateOrderMutation();
  const [requestInvoice] = useRequestInvoiceMutation();
  const [syncToQbo] = useSyncToQboMutation();
  const [copyCart] = useCopyCartMutation();
  // The edit form mounts afresh for each edit (its values start from the order as shown).
  const form = useRef<FormInstance<FormValues>>(null);
  const [editing, setEditing] = useState(false);
  // The lines while editing (null otherwise): quantities, removals and staff's quick adds.
  const [draft, setDraft] = useState<DraftLine[] | null>(null);
  const [cancelOpen, setCancelOpen] = useState(false);
  // An invoice whose estimate's deposit was taken: staff say, as they cancel, whether it is refunded
  // or kept (issue 30; the server refuses the void without it). Its estimate's acceptance says so.
  const estimateId = type === 'invoice' ? data?.order.EstimateId : undefined;
  const estimateAcceptance = useGetAcceptanceQuery(estimateId ?? '', { skip: !staff || !estimateId });
  const [depositAction, setDepositAction] = useState<DepositOnVoid | null>(null);
  const depositQuestion = useId();
  // Staff's edit refused for stock (409): the changes and the short lines, until they confirm or not.
  const [overbook, setOverbook] = useState<{ changes: OrderChanges; lines: ShortLine[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A refused edit's reason from the server (e.g. 'Only 3 of Bar Front are available'), under the error.
  const [reason, setReason] = useState<string | null>(null);
  const [success, flash] = useFlash();
  // One key per invoice request: a retry after a lost answer is the same request.
  const invoiceKey = useRef<string | null>(null);

  if (isLoading)
    return <Loading label="Loading the order" size="large" style={{ display: 'block', margin: 48 }} />;
  if (isError || !data) {
    return (
      <section className="page">
        <Alert type="error" showIcon role="alert" title={TEXTS.fetchError} />
      </section>
    );
  }
  const { order } = data;
  const depositTaken =
    !!estimateId &&
    order.status !== 'Voided' &&
    estimateAcceptance.data?.accepted?.depositState === 'captured';
  const closeCancel = () => {
    setCancelOpen(false);
    setDepositAction(null);
  };
  const updateError = type === 'invoice' ? TEXTS.invoiceUpdateError : TEXTS.submitError;

  const run = async (
    work: () => Promise<unknown>,
    done: string,
    failure: string,
    /** Answers true when it took care of the refusal itself. */
    refused?: (failed: unknown) => boolean,
  ) => {
    setError(null);
    setReason(null);
    try {
      await work();
      flash(done);
      return true;
    } catch (failed) {
      if (isQboSession(failed) || refused?.(failed)) return false;
      setError(failure);
      // A refusal (4xx) says why; other failures keep the spec's sentence alone.
      if (isApiError(failed) && failed.status >= 400 && failed.status < 500 && failed.status !== 408)
        setReason(failed.message);
      return false;
    }
  };

  const startEditing = () => {
    setDraft(draftOf(order));
    setEditing(true);
  };
  const stopEditing = () => {
    setDraft(null);
    setEditing(false);
  };

  const submitEdit = async () => {
    let values: FormValues;
    try {
      const current = form.current;
      if (!current) return;
      values = await current.validateFields();
    } catch (invalid) {
      // Spec §5: the first invalid field takes the focus.
      const first = (invalid as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) form.current?.focusField(first.name);
      return;
    }
    const changes: OrderChanges = changedFields(order, values);
    if (draft && linesChanged(order, draft)) changes.CartProducts = draft.map(({ id, qty }) => ({ id, qty }));
    if (Object.keys(changes).length === 0) {
      stopEditing();
      return;
    }
    const ok = await run(
      () => updateOrder({ type, id, changes }).unwrap(),
      TEXTS.success.updated,
      updateError,
      // Staff may book short lines anyway (a sub-rental), once they confirm; customers see the reason.
      (failed) => {
        if (!staff || !isApiError(failed) || failed.status !== 409 || !failed.shortLines?.length)
          return false;
        setOverbook({ changes, lines: failed.shortLines });
        return true;
      },
    );
    if (ok) stopEditing();
  };

  const bookAnyway = async () => {
    if (!overbook) return;
    const ok = await run(
      () => updateOrder({ type, id, changes: overbook.changes, overbook: true }).unwrap(),
      TEXTS.success.updated,
      updateError,
    );
    setOverbook(null);
    if (ok) stopEditing();
  };

  const queueQbo = async (update: boolean) => {
    const queued = await run(
      () => syncToQbo({ type, id, update }).unwrap(),
      update ? TEXTS.success.updatedInQbo : TEXTS.success.sentToQbo,
      TEXTS.submitError,
    );
    if (queued) setQboSince(Date.now());
  };

  const act: Record<string, () => void> = {
    edit: startEditing,
    requestInvoice: () => {
      invoiceKey.current ??= crypto.randomUUID();
      const key = invoiceKey.current;
      void run(
        async () => {
          await requestInvoice({ estimateId: order.id, key }).unwrap();
          invoiceKey.current = null;
        },
        TEXTS.success.invoiceRequested,
        TEXTS.invoiceRequestError,
      );
    },
    sendToQbo: () => void queueQbo(false),
    updateInQbo: () => void queueQbo(true),
    complete: () =>
      void run(
        () => updateOrder({ type, id, changes: { status: 'Completed' } }).unwrap(),
        TEXTS.success.completed,
        TEXTS.invoiceUpdateError,
      ),
    cancel: () => setCancelOpen(true),
    copyCart: () => {
      if (!activeCartId) {
        setError(TEXTS.copyError);
        return;
      }
      void run(
        () => copyCart({ from: order.CartId, to: activeCartId }).unwrap(),
        TEXTS.success.copied,
        TEXTS.copyError,
      );
    },
  };

  const options: { key: string; text: string; decision: ActionDecision }[] = [
    { key: 'edit', text: TEXTS.edit, decision: decision(order, 'edit') },
    ...(type === 'estimate'
      ? [{ key: 'requestInvoice', text: TEXTS.requestInvoice, decision: decision(order, 'requestInvoice') }]
      : []),
    ...(staff
      ? [
          { key: 'sendToQbo', text: TEXTS.sendToQbo, decision: decision(order, 'sendToQbo') },
          { key: 'updateInQbo', text: TEXTS.updateInQbo, decision: decision(order, 'updateInQbo') },
          ...(type === 'invoice'
            ? [{ key: 'complete', text: TEXTS.complete, decision: decision(order, 'complete') }]
            : []),
        ]
      : []),
    { key: 'cancel', text: TEXTS.cancelOrder, decision: decision(order, 'cancel') },
    ...(staff ? [] : [{ key: 'copyCart', text: TEXTS.copyCart, decision: { allowed: true } }]),
  ];
  const menu: MenuProps = {
    items: options.map((o) => ({
      key: o.key,
      disabled: !o.decision.allowed,
      label: <OptionLabel text={o.text} decision={o.decision} />,
    })),
    onClick: ({ key }) => act[key]?.(),
  };

  const title = `${type === 'estimate' ? 'Estimate' : 'Invoice'} #${order.DocNumber}`;
  return (
    <section className="page" aria-labelledby="order-title" style={{ display: 'grid', gap: 16 }}>
      {staff ? <QboSessionBanner /> : null}
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Flex align="center" gap={12} wrap>
          <h1 id="order-title" style={{ margin: 0 }}>
            {title}
          </h1>
          <StatusTag order={order} staff={staff} />
        </Flex>
        {editing ? (
          <Flex gap={8}>
            <Button onClick={stopEditing}>{TEXTS.cancel}</Button>
            <Button type="primary" loading={updating} onClick={() => void submitEdit()}>
              {TEXTS.update}
            </Button>
          </Flex>
        ) : (
          <Dropdown menu={menu} trigger={['click']}>
            <Button>
              {TEXTS.options} <DownOutlined />
            </Button>
          </Dropdown>
        )}
      </Flex>
      {success ? <Alert type="success" showIcon role="status" title={success} /> : null}
      {error ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={error}
          description={reason ?? undefined}
          closable={{ onClose: () => setError(null), 'aria-label': 'Dismiss' }}
        />
      ) : null}
      {staff ? (
        <Flex gap={24} wrap>
          <Link to={`/admin/users/${encodeURIComponent(order.UserId)}`}>
            {order.User?.displayName}
            {order.User?.ownCompany ? ` (${order.User.ownCompany})` : ''}
          </Link>
          <span data-testid="qbo-status">{qboStatusText(order)}</span>
          {order.subRental ? <span data-testid="sub-rental">{subRentalText(order.subRental)}</span> : null}
        </Flex>
      ) : null}
      <Linked order={order} type={type} base={base} />
      {type === 'estimate' ? (
        <AcceptanceSummary
          estimateId={order.id}
          pending={order.status === 'Pending'}
          staff={staff}
          base={base}
        />
      ) : null}
      {type === 'invoice' && order.EstimateId ? (
        <AcceptanceSummary estimateId={order.EstimateId} staff={staff} base={base} invoice />
      ) : null}
      <CartCard order={order} draft={editing ? draft : null} onDraft={setDraft} quickAdd={staff} />
      {editing ? (
        <Form<FormValues>
          ref={form}
          layout="vertical"
          requiredMark={false}
          initialValues={toForm(order)}
          onFinish={() => void submitEdit()}
        >
          <Card title={TEXTS.eventDetails}>
            <div
              style={{
                display: 'grid',
                gap: '0 20px',
                gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 240px), 1fr))',
              }}
            >
              {EVENT_FIELD_SPECS.map((f) => (
                <FieldItem key={f.name} field={f} />
              ))}
            </div>
          </Card>
          <Card title={TEXTS.willCallDetails} style={{ marginTop: 16 }}>
            <div
              style={{
                display: 'grid',
                gap: '0 20px',
                gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 200px), 1fr))',
              }}
            >
              {WILL_CALL_FIELD_SPECS.map((f) => (
                <FieldItem key={f.name} field={f} />
              ))}
            </div>
          </Card>
        </Form>
      ) : (
        <>
          <Card title={TEXTS.eventDetails} aria-label={TEXTS.eventDetails} role="region">
            <DetailsTable caption={TEXTS.eventDetails} fields={EVENT_FIELD_SPECS} order={order} />
          </Card>
          {hasWillCall(order) ? (
            <Card title={TEXTS.willCallDetails} aria-label={TEXTS.willCallDetails} role="region">
              <DetailsTable caption={TEXTS.willCallDetails} fields={WILL_CALL_FIELD_SPECS} order={order} />
            </Card>
          ) : null}
        </>
      )}
      <Modal
        open={overbook !== null}
        title={TEXTS.overbookTitle}
        okText={TEXTS.overbookConfirm}
        cancelText={TEXTS.overbookKeep}
        okButtonProps={{ danger: true, loading: updating }}
        onCancel={() => setOverbook(null)}
        onOk={() => void bookAnyway()}
      >
        <p>{TEXTS.overbookBody}</p>
        <ShortLines lines={overbook?.lines ?? []} />
      </Modal>
      <Modal
        open={cancelOpen}
        title={TEXTS.cancelTitle}
        okText={TEXTS.cancelConfirm}
        cancelText={TEXTS.keepOrder}
        okButtonProps={{ danger: true, loading: updating, disabled: depositTaken && !depositAction }}
        onCancel={closeCancel}
        onOk={async () => {
          const changes: OrderChanges =
            depositTaken && depositAction ? { status: 'Voided', depositAction } : { status: 'Voided' };
          await run(() => updateOrder({ type, id, changes }).unwrap(), TEXTS.success.cancelled, updateError);
          closeCancel();
        }}
      >
        <p>{TEXTS.cancelBody}</p>
        {depositTaken ? (
          <>
            <p id={depositQuestion}>{DEPOSIT_ON_VOID_TEXTS.question}</p>
            <Radio.Group
              aria-labelledby={depositQuestion}
              value={depositAction}
              onChange={(event) => setDepositAction(event.target.value as DepositOnVoid)}
              style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
              options={[
                { value: 'refund', label: DEPOSIT_ON_VOID_TEXTS.refund },
                { value: 'keep', label: DEPOSIT_ON_VOID_TEXTS.keep },
              ]}
            />
          </>
        ) : null}
      </Modal>
    </section>
  );
}
