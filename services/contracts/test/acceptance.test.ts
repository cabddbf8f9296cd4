import { Value } from '@sinclair/typebox/value';
import {
  ACCEPTABLE_STATES,
  acceptanceExpiresAt,
  acceptanceState,
  cardRequired,
  DEFAULT_AGREEMENT_TERMS,
  DEFAULT_AGREEMENT_TEXT,
  depositCents,
  OFFER_EXPIRED_EMAIL,
  OFFER_EXTENDED_EMAIL,
} from '../src/acceptance';
import {
  AcceptanceExtension,
  AcceptanceRequest,
  AcceptanceSettingsChange,
  AcceptanceView,
} from '../src/acceptance-schemas';
import {
  DepositCaptured,
  EstimateAccepted,
  EstimateOfferExpired,
  EstimateOfferExtended,
} from '../src/order-events';

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

  it('the view of an accepted estimate says what staff chose for the deposit when they voided its invoice', () => {
    const view = {
      state: 'accepted',
      estimateVersion: 'abc',
      deposit: { amount: 25, currency: 'USD' },
      agreement: { version: 1, text: 'Terms' },
      expiresAt: null,
      cardRequired: false,
      accepted: { signerName: 'Ada', at: '2026-12-02T00:00:00Z', agreementVersion: 1, pdf: null },
    };
    const withDeposit = (extra: object) => ({
      ...view,
      accepted: { ...view.accepted, depositState: 'captured', ...extra },
    });
    expect(Value.Check(AcceptanceView, withDeposit({}))).toBe(true);
    expect(Value.Check(AcceptanceView, withDeposit({ depositOnVoid: 'keep' }))).toBe(true);
    expect(Value.Check(AcceptanceView, withDeposit({ depositOnVoid: 'refund' }))).toBe(true);
    expect(Value.Check(AcceptanceView, withDeposit({ depositOnVoid: 'kept' }))).toBe(false);
  });

  it('staff extend an offer by a whole number of days, 1 to 90', () => {
    expect(Value.Check(AcceptanceExtension, { days: 1 })).toBe(true);
    expect(Value.Check(AcceptanceExtension, { days: 90 })).toBe(true);
    for (const days of [0, 91, 1.5, '7', null])
      expect(Value.Check(AcceptanceExtension, { days })).toBe(false);
    expect(Value.Check(AcceptanceExtension, {})).toBe(false);
    expect(Value.Check(AcceptanceExtension, { days: 7, expiresAt: '2031-01-01' })).toBe(false);
  });

  it('an offer that ended and one extended are order events carrying the order (live pages follow them)', () => {
    expect(Object.keys(EstimateOfferExpired.payload.properties).sort()).toEqual(['expiresAt', 'order']);
    expect(Object.keys(EstimateOfferExtended.payload.properties).sort()).toEqual([
      'actor',
      'expiresAt',
      'holdsTaken',
      'order',
      'previousExpiresAt',
    ]);
    expect(EstimateOfferExpired.aggregateType).toBe('order');
    expect(EstimateOfferExtended.aggregateType).toBe('order');
  });

  it('the extension e-mail names the estimate and its new end, and says the items are held again', () => {
    expect(OFFER_EXTENDED_EMAIL.subject('1042')).toBe('More time to accept your estimate #1042');
    expect(OFFER_EXTENDED_EMAIL.intro('1042', 'Friday, January 17th, 2031 at 9:00 AM UTC')).toBe(
      'We extended the time to accept your estimate #1042 online: you can review and accept it until Friday, January 17th, 2031 at 9:00 AM UTC.',
    );
    expect(OFFER_EXTENDED_EMAIL.heldAgain).toMatch(/held for you again/);
    expect(OFFER_EXTENDED_EMAIL.link).toBe('Review and accept');
  });

  it('the expiry e-mail names the estimate, says it can no longer be accepted and that the shop can extend it', () => {
    expect(OFFER_EXPIRED_EMAIL.subject('1042')).toBe('Your estimate #1042 can no longer be accepted');
    expect(OFFER_EXPIRED_EMAIL.intro('1042')).toContain('estimate #1042');
    expect(OFFER_EXPIRED_EMAIL.contact).toMatch(/contact us: we can extend it/);
  });
});
