import { Value } from '@sinclair/typebox/value';
import {
  ACCEPTABLE_STATES,
  acceptanceExpiresAt,
  acceptanceState,
  cardRequired,
  DEFAULT_AGREEMENT_TERMS,
  DEFAULT_AGREEMENT_TEXT,
  depositCents,
} from '../src/acceptance';
import { AcceptanceRequest, AcceptanceSettingsChange } from '../src/acceptance-schemas';
import { DepositCaptured, EstimateAccepted } from '../src/order-events';

const open = {
  status: 'Open',
  hasBeenModified: false,
  accepted: false,
  signatureVoided: false,
  expiresAt: new Date('2026-12-16T00:00:00Z'),
  now: new Date('2026-12-02T00:00:00Z'),
};

describe('acceptance rules (issue 30)', () => {
  it('a deposit is a percentage of the total, a fixed amount never above it, or none', () => {
    expect(depositCents({ depositPercent: 25 }, 10_001)).toBe(2500);
    expect(depositCents({ depositPercent: 25 }, 10_002)).toBe(2501);
    expect(depositCents({ depositAmount: 150 }, 100_000)).toBe(15_000);
    expect(depositCents({ depositAmount: 150 }, 9_999)).toBe(9_999);
    expect(depositCents({}, 10_000)).toBe(0);
    expect(depositCents({ depositPercent: 0 }, 10_000)).toBe(0);
  });

  it('a card is asked for only when the deposit due is more than the one still held', () => {
    expect(cardRequired(2500, 0)).toBe(true);
    expect(cardRequired(2500, 2500)).toBe(false);
    expect(cardRequired(2000, 2500)).toBe(false);
    expect(cardRequired(3000, 2500)).toBe(true);
    expect(cardRequired(0, 0)).toBe(false);
  });

  it('an offer lasts its validity days from when it was sent', () => {
    expect(acceptanceExpiresAt(new Date('2026-12-02T10:00:00Z'), 14).toISOString()).toBe(
      '2026-12-16T10:00:00.000Z',
    );
  });

  it('only an Open, unmodified estimate within its period awaits acceptance', () => {
    expect(acceptanceState(open)).toBe('awaiting');
    expect(acceptanceState({ ...open, status: 'Pending' })).toBe('not-offered');
    expect(acceptanceState({ ...open, hasBeenModified: true })).toBe('not-offered');
    expect(acceptanceState({ ...open, now: open.expiresAt })).toBe('expired');
    expect(acceptanceState({ ...open, expiresAt: null })).toBe('awaiting');
  });

  it('a recorded acceptance stands; a voided signature may be given again until the offer ends', () => {
    expect(acceptanceState({ ...open, accepted: true, status: 'Closed' })).toBe('accepted');
    expect(acceptanceState({ ...open, signatureVoided: true })).toBe('voided');
    expect(acceptanceState({ ...open, signatureVoided: true, now: open.expiresAt })).toBe('expired');
    expect([...ACCEPTABLE_STATES].sort()).toEqual(['awaiting', 'voided']);
  });

  it('the request needs a name, a PNG signature, the agreement and a payment method', () => {
    const ok = {
      estimateVersion: 'abc',
      signerName: 'Ada Lovelace',
      signature: `data:image/png;base64,${'A'.repeat(40)}`,
      agree: true,
      paymentMethod: 'pm_card_visa',
    };
    expect(Value.Check(AcceptanceRequest, ok)).toBe(true);
    expect(Value.Check(AcceptanceRequest, { ...ok, signerName: '   ' })).toBe(false);
    expect(Value.Check(AcceptanceRequest, { ...ok, signature: 'data:image/jpeg;base64,AAAA' })).toBe(false);
    expect(Value.Check(AcceptanceRequest, { ...ok, agree: false })).toBe(false);
    expect(Value.Check(AcceptanceRequest, { ...ok, paymentMethod: '4242424242424242' })).toBe(false);
    expect(Value.Check(AcceptanceRequest, { ...ok, card: '4242' })).toBe(false);
  });

  it('a settings change cannot set the agreement version (the server bumps it)', () => {
    const change = { depositPercent: 25, validityDays: 14, agreementText: 'Terms' };
    expect(Value.Check(AcceptanceSettingsChange, change)).toBe(true);
    expect(Value.Check(AcceptanceSettingsChange, { ...change, agreementVersion: 9 })).toBe(false);
    expect(Value.Check(AcceptanceSettingsChange, { ...change, validityDays: 0 })).toBe(false);
  });

  it("the first agreement is the terms page's text, one paragraph per term", () => {
    expect(DEFAULT_AGREEMENT_TERMS).toHaveLength(6);
    expect(DEFAULT_AGREEMENT_TEXT.split('\n\n')).toEqual([...DEFAULT_AGREEMENT_TERMS]);
    expect(DEFAULT_AGREEMENT_TEXT).toContain('The warranty period is ten days.');
  });

  it('EstimateAccepted carries the signer, the agreement version and the deposit, never the address', () => {
    const props = Object.keys(EstimateAccepted.payload.properties.acceptance.properties);
    expect(props.sort()).toEqual(['agreementVersion', 'at', 'deposit', 'estimateVersion', 'signerName']);
    expect(EstimateAccepted.aggregateType).toBe('order');
  });

  it('DepositCaptured names the invoice it pays and the amount taken', () => {
    expect(Object.keys(DepositCaptured.payload.properties)).toEqual(
      expect.arrayContaining(['estimateId', 'invoiceId', 'intentId', 'amountCents']),
    );
    expect(DepositCaptured.aggregateType).toBe('order');
  });
});
