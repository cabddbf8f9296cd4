import { ACCEPTABLE_STATES } from '@decor/contracts/rules';
import { API_BASE_URL, formatDollars, http } from '@decor/web-core';
import { useNavigate } from '@decor/web-core/router';
import { Alert, Button, Flex } from '@decor/web-core/ui';
import { Card } from '@decor/web-core/ui-data';
import { ACCEPT_TEXTS, changedFieldLabel, DEPOSIT_TEXT, formatMoment, STATE_TEXT } from '../acceptance-texts';
import { useGetAcceptanceQuery } from '../api/orders-api';

/** The signed agreement needs the session's Authorization header: fetched, then shown from memory. */
async function openPdf(address: string) {
  const url = address.startsWith(API_BASE_URL) ? address.slice(API_BASE_URL.length) : address;
  const answer = await http.get<Blob>(url, { responseType: 'blob' });
  const blob = URL.createObjectURL(answer.data);
  window.open(blob, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(blob), 60_000);
}

/**
 * The estimate's acceptance on its order page (issue 30): the customer's 'Review and accept' while
 * it can be accepted; who signed, when and the deposit's state once accepted (customer and staff).
 * On an invoice's page (`invoice`) it is its estimate's, shown only once accepted: where staff void
 * the invoice, the deposit's fate (captured, refunded) shows. Follows the live order stream (the
 * query shares the estimate's tag). Quiet when nothing applies or the server does not answer (the
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
        </Flex>
        {state === 'voided' && data.changed?.length ? (
          <Alert
            type="warning"
            showIcon
            title={said}
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
                {ACCEPT_TEXTS.deposit}: {formatDollars(data.deposit.amount)},{' '}
                {DEPOSIT_TEXT[accepted.depositState]}
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
          <span>{ACCEPT_TEXTS.expiresAt(formatMoment(data.expiresAt))}</span>
        ) : null}
      </Flex>
    </Card>
  );
}
