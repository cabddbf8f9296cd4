import {
  ACCEPTABLE_STATES,
  ACCEPTANCE_MESSAGES,
  type AcceptanceView,
  EVENT_FIELD_SPECS,
  toCents,
  WILL_CALL_FIELD_SPECS,
} from '@decor/contracts/rules';
import { formatDollars, isApiError } from '@decor/web-core';
import { Link } from '@decor/web-core/router';
import { Alert, Button, Flex, Loading } from '@decor/web-core/ui';
import { Card, Checkbox } from '@decor/web-core/ui-data';
import { Input, Result } from '@decor/web-core/ui-forms';
import { useEffect, useRef, useState } from 'react';
import { ACCEPT_TEXTS, changedFieldLabel, formatMoment } from '../acceptance-texts';
import { useAcceptEstimateMutation, useGetAcceptanceQuery, useGetOrderQuery } from '../api/orders-api';
import { TEXTS } from '../texts';
import { CartCard } from './CartCard';
import { DetailsTable, hasWillCall } from './fields';
import { PaymentFrame } from './PaymentFrame';
import { SignatureField } from './SignatureField';

export interface AcceptEstimateProps {
  id: string;
  staff: boolean;
  base: string;
}

interface Failure {
  status: number;
  message: string;
}

/**
 * A refusal that says nothing was recorded (400, 402, 409, 503…): the next attempt is a new request
 * and needs a new Idempotency-Key, or the server would replay this answer. No answer at all (a lost
 * connection, a timeout) keeps the key: the retry may be the same request arriving twice.
 */
const answered = (status: number) => status >= 400 && status !== 408 && status !== 500;

function Accepted({ view, base, id }: { view: AcceptanceView; base: string; id: string }) {
  const accepted = view.accepted;
  return (
    <Result
      status="success"
      title={<span role="status">{ACCEPT_TEXTS.accepted}</span>}
      subTitle={
        accepted ? ACCEPT_TEXTS.acceptedBy(accepted.signerName, formatMoment(accepted.at)) : undefined
      }
      extra={<Link to={`${base}/estimate/${encodeURIComponent(id)}`}>{ACCEPT_TEXTS.backToOrder}</Link>}
    />
  );
}

/** /orders/estimate/{id}/accept (issue 30): the customer reviews, signs and authorises the deposit. */
export function AcceptEstimate({ id, staff, base }: AcceptEstimateProps) {
  const order = useGetOrderQuery({ type: 'estimate', id });
  const acceptance = useGetAcceptanceQuery(id);
  const [accept] = useAcceptEstimateMutation();
  // One key per screen opened (a double click or a retry is the same request), renewed after a refusal.
  const [key, setKey] = useState(() => crypto.randomUUID());
  // The version the customer is reviewing: a live change of the estimate does not slip into the POST.
  const [reviewed, setReviewed] = useState<string | null>(null);
  const [signerName, setSignerName] = useState('');
  const [signature, setSignature] = useState<string | null>(null);
  const [agree, setAgree] = useState(false);
  const [paymentMethod, setPaymentMethod] = useState<string | null>(null);
  // A new frame (empty card form) after a declined card.
  const [frameKey, setFrameKey] = useState(0);
  const [missing, setMissing] = useState<string[]>([]);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const [done, setDone] = useState<AcceptanceView | null>(null);

  const view = acceptance.data;
  useEffect(() => {
    if (view && reviewed === null) setReviewed(view.estimateVersion);
  }, [view, reviewed]);

  if (order.isLoading || acceptance.isLoading)
    return <Loading label={ACCEPT_TEXTS.loading} size="large" style={{ display: 'block', margin: 48 }} />;
  const back = <Link to={`${base}/estimate/${encodeURIComponent(id)}`}>{ACCEPT_TEXTS.backToOrder}</Link>;
  if (order.isError || acceptance.isError || !order.data || !view) {
    const reason = isApiError(acceptance.error) ? acceptance.error.message : undefined;
    return (
      <section className="page" style={{ display: 'grid', gap: 16 }}>
        <Alert type="error" showIcon role="alert" title={ACCEPT_TEXTS.fetchError} description={reason} />
        {back}
      </section>
    );
  }
  const estimate = order.data.order;
  const deposit = view.deposit.amount;
  // The server says whether a card is needed (a deposit due beyond one still authorised).
  const needsCard = view.cardRequired;
  const changedSinceOpened = reviewed !== null && reviewed !== view.estimateVersion;

  const reload = () => {
    void order.refetch();
    void acceptance.refetch().then((next) => {
      if (next.data) setReviewed(next.data.estimateVersion);
    });
    setFailure(null);
  };

  const submit = async () => {
    if (sending.current) return;
    const lacking = [
      ...(signerName.trim() ? [] : [ACCEPT_TEXTS.missingName]),
      ...(signature ? [] : [ACCEPT_TEXTS.missingSignature]),
      ...(agree ? [] : [ACCEPT_TEXTS.missingAgree]),
      ...(needsCard && !paymentMethod ? [ACCEPT_TEXTS.missingCard] : []),
    ];
    setMissing(lacking);
    setFailure(null);
    if (lacking.length > 0 || !signature) return;
    sending.current = true;
    setBusy(true);
    try {
      const answer = await accept({
        id,
        key,
        body: {
          estimateVersion: reviewed ?? view.estimateVersion,
          signerName: signerName.trim(),
          signature,
          agree: true,
          ...(needsCard && paymentMethod ? { paymentMethod } : {}),
        },
      }).unwrap();
      setDone(answer);
    } catch (failed) {
      const error = isApiError(failed) ? failed : { status: 500, message: TEXTS.submitError };
      setFailure({ status: error.status, message: error.message });
      if (answered(error.status)) setKey(crypto.randomUUID());
      // A declined card: its payment method is spent, the frame starts over for another card.
      if (error.status === 402) {
        setPaymentMethod(null);
        setFrameKey((k) => k + 1);
      }
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const accepted = done ?? (view.state === 'accepted' ? view : null);
  return (
    <section className="page" aria-labelledby="accept-title" style={{ display: 'grid', gap: 16 }}>
      {back}
      <h1 id="accept-title" style={{ margin: 0 }}>
        {ACCEPT_TEXTS.title(estimate.DocNumber)}
      </h1>
      {accepted ? <Accepted view={accepted} base={base} id={id} /> : null}
      {!accepted && staff ? (
        <Alert type="info" showIcon role="status" title={ACCEPT_TEXTS.staffCannotSign} />
      ) : null}
      {!accepted && view.state === 'expired' ? (
        <Alert type="warning" showIcon role="status" title={ACCEPTANCE_MESSAGES.expired} />
      ) : null}
      {!accepted && view.state === 'not-offered' ? (
        <Alert type="info" showIcon role="status" title={ACCEPTANCE_MESSAGES.notOffered} />
      ) : null}
      {!accepted && view.state === 'voided' ? (
        <Alert
          type="warning"
          showIcon
          title={ACCEPTANCE_MESSAGES.voided}
          description={
            view.changed?.length ? (
              <>
                {ACCEPT_TEXTS.whatChanged}
                <ul style={{ margin: '4px 0 0' }}>
                  {view.changed.map((name) => (
                    <li key={name}>{changedFieldLabel(name)}</li>
                  ))}
                </ul>
              </>
            ) : undefined
          }
        />
      ) : null}
      {changedSinceOpened && !accepted ? (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={ACCEPTANCE_MESSAGES.changed}
          action={<Button onClick={reload}>{ACCEPT_TEXTS.reload}</Button>}
        />
      ) : null}
      <CartCard order={estimate} draft={null} onDraft={() => undefined} quickAdd={false} />
      <Card title={TEXTS.eventDetails} aria-label={TEXTS.eventDetails} role="region">
        <DetailsTable caption={TEXTS.eventDetails} fields={EVENT_FIELD_SPECS} order={estimate} />
      </Card>
      {hasWillCall(estimate) ? (
        <Card title={TEXTS.willCallDetails} aria-label={TEXTS.willCallDetails} role="region">
          <DetailsTable caption={TEXTS.willCallDetails} fields={WILL_CALL_FIELD_SPECS} order={estimate} />
        </Card>
      ) : null}
      <Card title={ACCEPT_TEXTS.agreement(view.agreement.version)}>
        <section
          aria-label={ACCEPT_TEXTS.agreement(view.agreement.version)}
          // Focusable: keyboard users scroll the agreement (axe: scrollable-region-focusable).
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus
          tabIndex={0}
          data-testid="agreement-text"
          style={{ maxHeight: 240, overflowY: 'auto', whiteSpace: 'pre-line', padding: 4 }}
        >
          {view.agreement.text}
        </section>
      </Card>
      <Card title={ACCEPT_TEXTS.deposit} aria-label={ACCEPT_TEXTS.deposit} role="region">
        {deposit > 0 ? (
          <p style={{ margin: 0 }}>
            <strong data-testid="deposit-amount">{formatDollars(deposit)}</strong> —{' '}
            {ACCEPT_TEXTS.depositNote}
          </p>
        ) : (
          <p style={{ margin: 0 }}>{ACCEPT_TEXTS.noDeposit}</p>
        )}
        {view.expiresAt && !accepted ? (
          <p style={{ margin: '8px 0 0' }}>{ACCEPT_TEXTS.expiresAt(formatMoment(view.expiresAt))}</p>
        ) : null}
      </Card>
      {!accepted && !staff && ACCEPTABLE_STATES.has(view.state) ? (
        <>
          <Card title={ACCEPT_TEXTS.signature} aria-label={ACCEPT_TEXTS.signature} role="region">
            <Flex vertical gap={12}>
              <label htmlFor="signer-name" style={{ fontWeight: 500 }}>
                {ACCEPT_TEXTS.fullName}
              </label>
              <Input
                id="signer-name"
                autoComplete="name"
                aria-required
                aria-describedby="signer-name-help"
                value={signerName}
                maxLength={200}
                onChange={(e) => setSignerName(e.target.value)}
                style={{ maxWidth: 480 }}
              />
              <span id="signer-name-help" style={{ color: '#6b5d52' }}>
                {ACCEPT_TEXTS.fullNameHelp}
              </span>
              <SignatureField name={signerName} onChange={setSignature} />
              <Checkbox checked={agree} onChange={(e) => setAgree(e.target.checked)}>
                {ACCEPT_TEXTS.agree}
              </Checkbox>
            </Flex>
          </Card>
          {needsCard && view.paymentFrameUrl ? (
            <Card title={ACCEPT_TEXTS.card} aria-label={ACCEPT_TEXTS.card} role="region">
              <PaymentFrame
                key={frameKey}
                frameUrl={view.paymentFrameUrl}
                deposit={{ amountCents: toCents(view.deposit.amount), currency: view.deposit.currency }}
                onPaymentMethod={setPaymentMethod}
              />
              {paymentMethod ? (
                <p role="status" style={{ margin: '8px 0 0' }}>
                  {ACCEPT_TEXTS.cardReady}
                </p>
              ) : null}
            </Card>
          ) : null}
          {missing.length > 0 ? (
            <Alert
              type="warning"
              showIcon
              role="alert"
              title={ACCEPT_TEXTS.missing}
              description={
                <ul style={{ margin: 0 }}>
                  {missing.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              }
            />
          ) : null}
          {failure ? (
            <Alert
              type="error"
              showIcon
              role="alert"
              title={failure.message}
              action={
                failure.status === 409 ? <Button onClick={reload}>{ACCEPT_TEXTS.reload}</Button> : undefined
              }
            />
          ) : null}
          <Flex justify="end">
            <Button type="primary" size="large" loading={busy} onClick={() => void submit()}>
              {ACCEPT_TEXTS.accept}
            </Button>
          </Flex>
        </>
      ) : null}
    </section>
  );
}
