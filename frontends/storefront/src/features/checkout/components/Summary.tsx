import {
  EVENT_FIELD_SPECS,
  type OrderFieldSpec,
  type ShortLine,
  WILL_CALL_FIELD_SPECS,
} from '@decor/contracts/rules';
import {
  type ApiError,
  type CartLine,
  type EstimateRequest,
  formatDollars,
  formatLongDate,
  formatTime,
  showWillCall,
  useCreateEstimateMutation,
  useGetCartQuery,
} from '@decor/web-core';
import { Link, Navigate, useLocation, useNavigate } from '@decor/web-core/router';
import { Alert, Button, Flex, Loading, Spin } from '@decor/web-core/ui';
import { Checkbox, Collapse, Table, type TableColumnsType } from '@decor/web-core/ui-data';
import { Modal, Result } from '@decor/web-core/ui-forms';
import { useMemo, useState } from 'react';
import type { CheckoutState } from '../../../shared/cart/checkout-state';
import { TEXTS } from '../../../texts';
import { useCartFit } from '../cart-fit';
import { TERMS } from '../fields';

const show = (field: OrderFieldSpec, value: string | undefined) => {
  if (!value) return '';
  if (field.kind === 'date') return formatLongDate(value);
  if (field.kind === 'time') return formatTime(value);
  return value;
};

function DetailsTable({
  caption,
  fields,
  values,
}: {
  caption: string;
  fields: readonly OrderFieldSpec[];
  values: Record<string, string | undefined>;
}) {
  return (
    <table
      className="details"
      style={{ width: '100%', borderCollapse: 'collapse', background: '#fff', borderRadius: 8 }}
    >
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {fields.map((f) => (
          <tr key={f.name} style={{ borderBottom: '1px solid #f0e8dd' }}>
            <th
              scope="row"
              style={{
                textAlign: 'left',
                padding: '8px 12px',
                width: '40%',
                fontWeight: 500,
                color: '#6b5d52',
              }}
            >
              {f.label}
            </th>
            <td style={{ padding: '8px 12px', whiteSpace: 'pre-line' }}>{show(f, values[f.name])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Dialog =
  | { open: false }
  | { open: true; state: 'sending' | 'done' | 'failed'; docNumber?: string; reason?: string };

/** /checkout/summary (spec §2): what will be ordered, the terms, and Submit Order. */
export function Summary() {
  const location = useLocation();
  const navigate = useNavigate();
  const carried = (location.state ?? null) as CheckoutState | null;
  const {
    data: cart,
    isLoading,
    isError,
  } = useGetCartQuery({ id: carried?.cartId ?? '' }, { skip: !carried?.cartId });
  const [createEstimate] = useCreateEstimateMutation();
  const [agreed, setAgreed] = useState(false);
  const [dialog, setDialog] = useState<Dialog>({ open: false });
  const idempotencyKey = useMemo(() => crypto.randomUUID(), []);
  // The short lines of the server's last refusal (409), marked until the cart changes.
  const [refused, setRefused] = useState<ShortLine[]>([]);
  const fit = useCartFit(
    cart,
    [carried?.event?.eventDate, carried?.willCall?.willCallPickupDate, carried?.willCall?.willCallReturnDate],
    refused,
  );

  if (!carried?.event) return <Navigate to="/" replace />;
  const event = carried.event as unknown as Record<string, string | undefined>;
  const willCall = { ...carried.willCall } as Record<string, string | undefined>;

  const submit = async () => {
    if (!agreed || !cart || !fit.fits) return;
    setDialog({ open: true, state: 'sending' });
    const body = {
      CartId: cart.id,
      status: 'Pending',
      ...carried.event,
      ...carried.willCall,
    } as EstimateRequest;
    try {
      const created = await createEstimate({ body, key: idempotencyKey }).unwrap();
      // The confirmation e-mails go out from the estimate's EstimateSubmitted event: nothing else to call.
      setDialog({ open: true, state: 'done', docNumber: created.DocNumber });
      // The active cart query follows (createEstimate invalidates it; useActiveCart waits for the next cart).
    } catch (error) {
      const failure = error as ApiError;
      setDialog({ open: true, state: 'failed', reason: failure.message });
      if (failure.shortLines) {
        setRefused(failure.shortLines);
        if (fit.checked) void fit.refetch();
      }
    }
  };

  const columns: TableColumnsType<CartLine> = [
    { title: 'Product', dataIndex: 'name' },
    { title: 'Price', dataIndex: 'price', align: 'right', render: (v: number) => formatDollars(v) },
    { title: 'Quantity', dataIndex: 'qty', align: 'right' },
    { title: 'Total', dataIndex: 'total', align: 'right', render: (v: number) => formatDollars(v) },
    ...(fit.checked
      ? [
          {
            title: TEXTS.lineAvailability,
            key: 'availability',
            render: (_: unknown, line: CartLine) => {
              const lineFit = fit.lines.get(line.CartProductId);
              if (!lineFit)
                return fit.checking ? <Loading label={TEXTS.checkingAvailability} size="small" /> : null;
              return (
                <span
                  data-testid="line-availability"
                  data-short={lineFit.short || undefined}
                  style={{
                    color: lineFit.short ? '#c0392b' : '#2e7d32',
                    fontWeight: lineFit.short ? 600 : 400,
                  }}
                >
                  {lineFit.text}
                </span>
              );
            },
          },
        ]
      : []),
  ];

  return (
    <section className="page" aria-labelledby="summary-title">
      <h1 id="summary-title" style={{ marginTop: 0 }}>
        Summary
      </h1>
      {isError ? <Alert type="error" showIcon title={TEXTS.cartLoadError} /> : null}
      {fit.failed ? <Alert type="warning" showIcon title={TEXTS.availabilityError} /> : null}
      {!fit.fits ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={TEXTS.cartDoesNotFit}
          action={
            <Button onClick={() => navigate('/checkout/cart', { state: carried })}>{TEXTS.editCart}</Button>
          }
          style={{ marginBottom: 12 }}
        />
      ) : null}
      {isLoading ? <Loading label="Loading the cart" /> : null}
      {cart ? (
        <div style={{ overflowX: 'auto' }}>
          <Table<CartLine>
            rowKey="CartProductId"
            columns={columns}
            dataSource={cart.CartProducts}
            pagination={false}
            size="small"
            summary={() => (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={3}>
                  <strong>Total</strong>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={1} align="right">
                  <strong data-testid="summary-total">{formatDollars(cart.cartTotal)}</strong>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            )}
          />
        </div>
      ) : null}

      <h2>Event Details</h2>
      <div
        style={{
          display: 'grid',
          gap: 16,
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 340px), 1fr))',
        }}
      >
        <DetailsTable caption="Event details, part 1" fields={EVENT_FIELD_SPECS.slice(0, 6)} values={event} />
        <DetailsTable
          caption="Event details, part 2"
          fields={EVENT_FIELD_SPECS.slice(6, 13)}
          values={event}
        />
      </div>

      {showWillCall(willCall) ? (
        <>
          <h2>Will Call Order</h2>
          <DetailsTable caption="Will call order" fields={WILL_CALL_FIELD_SPECS} values={willCall} />
        </>
      ) : null}

      <Collapse
        style={{ margin: '24px 0 16px' }}
        items={[
          {
            key: 'terms',
            label: 'Terms & Conditions',
            children: (
              <ul style={{ margin: 0, paddingLeft: 20, lineHeight: 1.7 }}>
                {TERMS.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            ),
          },
        ]}
      />
      <Checkbox checked={agreed} onChange={(e) => setAgreed(e.target.checked)}>
        I agree to the Terms &amp; Conditions
      </Checkbox>
      {!agreed ? (
        <div aria-live="polite" style={{ color: '#c0392b', marginTop: 4 }}>
          {TEXTS.agree}
        </div>
      ) : null}
      <Flex gap={12} style={{ marginTop: 20 }} wrap>
        <Button onClick={() => navigate('/checkout/event', { state: carried })}>Back</Button>
        <Button
          type="primary"
          size="large"
          disabled={!agreed || !cart || !fit.fits || fit.checking}
          onClick={submit}
        >
          Submit Order
        </Button>
      </Flex>

      <Modal
        open={dialog.open}
        title="Submit Order"
        closable={dialog.open && dialog.state !== 'sending'}
        mask={{ closable: false }}
        onCancel={() => setDialog({ open: false })}
        footer={
          dialog.open && dialog.state === 'done' ? (
            <Button type="primary" onClick={() => navigate('/', { replace: true })}>
              Done
            </Button>
          ) : dialog.open && dialog.state === 'failed' ? (
            <Button onClick={() => setDialog({ open: false })}>Close</Button>
          ) : null
        }
      >
        {dialog.open && dialog.state === 'sending' ? (
          <Flex vertical align="center" gap={12} style={{ padding: 24 }}>
            <Spin size="large" />
            <span>Submitting your order…</span>
          </Flex>
        ) : null}
        {dialog.open && dialog.state === 'done' ? (
          <Result
            status="success"
            title={TEXTS.submitted}
            subTitle={
              <>
                {dialog.docNumber ? `Estimate ${dialog.docNumber}. ` : ''}We will be in touch soon.{' '}
                <Link to="/carts">Your carts</Link>
              </>
            }
          />
        ) : null}
        {dialog.open && dialog.state === 'failed' ? (
          <Result
            status="error"
            title={TEXTS.submitFailure}
            subTitle={dialog.reason ?? TEXTS.submitGenericFailure}
          />
        ) : null}
      </Modal>
    </section>
  );
}
