import {
  ACCEPTABLE_STATES,
  type AcceptanceState,
  type AcceptanceView,
  EXTEND_OFFER_TEXTS,
} from '@decor/contracts/rules';
import { API_BASE_URL, formatDollars, http } from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Alert, Button, Flex } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import { useState } from 'react';
import { ACCEPT_TEXTS, changedFieldLabel, DEPOSIT_TEXT, formatMoment, STATE_TEXT } from '../acceptance-texts';
import { useGetAcceptanceQuery } from '../api/orders-api';
import { ExtendOffer } from './ExtendOffer';
import { useFlash } from './use-flash';

/** The signed agreement needs the session's Authorization header: fetched, then shown from memory. */
async function openPdf(address: string) {
  const url = address.startsWith(API_BASE_URL) ? address.slice(API_BASE_URL.length) : address;
  const answer = await http.get<Blob>(url, { responseType: 'blob' });
  const blob = URL.createObjectURL(answer.data);
  window.open(blob, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(blob), 60_000);
}

/** The offers staff may extend: offered and not accepted (the server refuses the others). */
const EXTENDABLE: ReadonlySet<AcceptanceState> = new Set(['awaiting', 'voided', 'expired']);

/**
 * The deposit's state as staff and the customer read it: a deposit taken and then kept when its
 * invoice was voided (staff's choice, `depositOnVoid`) reads 'kept'.
 */
function depositText(accepted: NonNullable<AcceptanceView['accepted']>): string {
  const kept = accepted.depositState === 'captured' && accepted.depositOnVoid === 'keep';
  return kept ? DEPOSIT_TEXT.kept : DEPOSIT_TEXT[accepted.depositState];
}

/**
 * The estimate's acceptance on its order page (issue 30): the customer's 'Review and accept' while
 * it can be accepted; who signed, when and the deposit's state once accepted (customer and staff).
 * On an invoice's page (`invoice`) it is its estimate's, shown only once accepted: where staff void
 * the invoice, the deposit's fate (captured, refunded, kept) shows. Staff extend an offer not accepted
 * yet (awaiting, voided or expired). Follows the live order stream (the query shares the estimate's
 * tag: EstimateOfferExpired and EstimateOfferExtended refresh it). Quiet when nothing applies or the server does not answer (the
 * order page stands on its own).
 */
export function AcceptanceSummary({
  estimateId,
  pending = false,
  staff,
  base,
  invoice = false,
}: {
  estimateId: string;
  /** A Pending estimate is never offered: nothing to ask. */
  pending?: boolean;
  staff: boolean;
  base: string;
  invoice?: boolean;
}) {
  const { data } = useGetAcceptanceQuery(estimateId, { skip: pending });
  const navigate = useNavigate();
  const [extending, setExtending] = useState(false);
  const [extended, flash] = useFlash();
  if (!data || (data.state === 'not-offered' && !staff) || (invoice && !data.accepted)) return null;
  const { state, accepted } = data;
  const acceptable = ACCEPTABLE_STATES.has(state);
  const said = STATE_TEXT[state][staff ? 'staff' : 'customer'];
  return (
    <Card title={ACCEPT_TEXTS.acceptance} aria-label={ACCEPT_TEXTS.acceptance} role="region">
      <Flex vertical gap={8}>
        <Flex justify="space-between" align="center" wrap gap={12}>
          <strong data-testid="acceptance-state">{said}</strong>
          {acceptable && !staff && !invoice ? (
            <Button
              type="primary"
              onClick={() => navigate(`${base}/estimate/${encodeURIComponent(estimateId)}/accept`)}
            >
              {ACCEPT_TEXTS.reviewAndAccept}
            </Button>
          ) : null}
          {staff && !invoice && EXTENDABLE.has(state) ? (
            <Button onClick={() => setExtending(true)}>{EXTEND_OFFER_TEXTS.action}</Button>
          ) : null}
        </Flex>
        {extended ? <Alert type="success" showIcon role="status" title={extended} /> : null}
        {state === 'voided' && data.changed?.length ? (
          // The state above already says the signature was voided: the notice says what changed.
          <Alert
            type="warning"
            showIcon
            title={ACCEPT_TEXTS.whatChanged}
            description={data.changed.map(changedFieldLabel).join(', ')}
          />
        ) : null}
        {accepted ? (
          <>
            <span data-testid="acceptance-signer">
              {ACCEPT_TEXTS.acceptedBy(accepted.signerName, formatMoment(accepted.at))}
            </span>
            <span>Agreement version {accepted.agreementVersion}</span>
            {data.deposit.amount > 0 ? (
              <span data-testid="acceptance-deposit">
                {ACCEPT_TEXTS.deposit}: {formatDollars(data.deposit.amount)}, {depositText(accepted)}
              </span>
            ) : null}
            {accepted.pdf ? (
              <Button
                type="link"
                style={{ padding: 0, alignSelf: 'start' }}
                onClick={() => void openPdf(accepted.pdf ?? '')}
              >
                {ACCEPT_TEXTS.signedAgreement}
              </Button>
            ) : null}
          </>
        ) : null}
        {acceptable && data.expiresAt ? (
          <span data-testid="acceptance-expires">{ACCEPT_TEXTS.expiresAt(formatMoment(data.expiresAt))}</span>
        ) : null}
        {state === 'expired' && staff && data.expiresAt ? (
          <span data-testid="acceptance-expires">{ACCEPT_TEXTS.endedAt(formatMoment(data.expiresAt))}</span>
        ) : null}
      </Flex>
      {staff && !invoice ? (
        <ExtendOffer
          estimateId={estimateId}
          open={extending}
          onClose={() => setExtending(false)}
          onExtended={(view) => {
            setExtending(false);
            if (view.expiresAt) flash(EXTEND_OFFER_TEXTS.extended(formatMoment(view.expiresAt)));
          }}
        />
      ) : null}
    </Card>
  );
}
