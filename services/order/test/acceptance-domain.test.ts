/** Issue 30's pure rules of one estimate's acceptance (domain/acceptance.ts). */
import { createHash } from 'node:crypto';
import { ACCEPTANCE_MESSAGES } from '@decor/contracts';
import {
  type AcceptanceFacts,
  acceptanceView,
  acceptedAsAsked,
  acceptRefusal,
  authorisationKey,
  canonicalContent,
  estimateVersionOf,
  offerFor,
  signatureSha256,
} from '../src/domain/acceptance';
import type { OrderRecord } from '../src/domain/view';

const NOW = new Date('2030-05-01T12:00:00Z');

const order = (extra: Partial<OrderRecord> = {}): OrderRecord => ({
  orderType: 'estimate',
  id: 'e1',
  docNumber: '1001',
  userId: 'u1',
  cartId: 'c1',
  estimateId: null,
  status: 'Open',
  hasBeenModified: false,
  hasInvoice: false,
  isInQbo: true,
  qboId: '7',
  syncToken: '0',
  details: { groupName: 'Gala', eventDate: '2030-07-01', location: 'Hall' },
  lines: [
    {
      productId: 'P1',
      name: 'Chair',
      description: '',
      qty: 2,
      priceCents: 1250,
      totalCents: 2500,
      qboId: null,
    },
  ],
  subtotalCents: 2500,
  truckingCents: 35_000,
  taxCents: 0,
  totalCents: 37_500,
  customer: { email: 'a@b.c', displayName: 'A', ownCompany: null, qboId: null },
  createdAt: NOW,
  revision: 4,
  editedRevision: 0,
  subRental: null,
  ...extra,
});

const offer = offerFor(order(), { depositPercent: 25, validityDays: 14 }, { version: 3, sha256: 'h' }, NOW);
const offered: AcceptanceFacts = { offer, acceptance: null, deposit: null, voidedChanges: null };

describe('what the customer is shown, and its version', () => {
  it('is the same for the same content whatever the bookkeeping, and different for any change shown', () => {
    const v = estimateVersionOf(order());
    expect(v).toMatch(/^[0-9a-f]{64}$/);
    expect(estimateVersionOf(order({ revision: 9, syncToken: '5', qboId: '8' }))).toBe(v);
    // Detail keys in any order, empty ones absent: the same content.
    expect(
      estimateVersionOf(
        order({ details: { location: 'Hall', eventDate: '2030-07-01', groupName: 'Gala', room: '' } }),
      ),
    ).toBe(v);
    for (const change of [
      { details: { groupName: 'Gala', eventDate: '2030-07-02', location: 'Hall' } },
      { lines: [{ ...order().lines[0], qty: 3 }] as OrderRecord['lines'] },
      { truckingCents: 35_001 },
      { totalCents: 37_501 },
    ])
      expect(estimateVersionOf(order(change))).not.toBe(v);
    expect(JSON.parse(canonicalContent(order())).lines).toEqual([['P1', 'Chair', '', 2, 1250, 2500]]);
  });

  it('the signature hash is of the image bytes', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const expected = createHash('sha256').update(png).digest('hex');
    expect(signatureSha256(`data:image/png;base64,${png.toString('base64')}`)).toBe(expected);
  });
});

describe('whether a POST may go ahead', () => {
  const v = estimateVersionOf(order());
  it('an offered, unchanged estimate within its period: yes', () => {
    expect(acceptRefusal(order(), offered, v, NOW)).toBeNull();
  });
  it('refusals, in order: accepted, expired, not offered, changed (with the version now)', () => {
    const accepted = { ...offered, acceptance: {} as never };
    expect(acceptRefusal(order(), accepted, v, NOW)?.message).toBe(ACCEPTANCE_MESSAGES.alreadyAccepted);
    const late = new Date(offer.expiresAt.getTime() + 1);
    expect(acceptRefusal(order(), offered, v, late)?.message).toBe(ACCEPTANCE_MESSAGES.expired);
    expect(acceptRefusal(order({ status: 'Pending' }), offered, v, NOW)?.message).toBe(
      ACCEPTANCE_MESSAGES.notOffered,
    );
    expect(acceptRefusal(order({ hasBeenModified: true }), offered, v, NOW)?.message).toBe(
      ACCEPTANCE_MESSAGES.notOffered,
    );
    expect(acceptRefusal(order(), { ...offered, offer: null }, v, NOW)?.message).toBe(
      ACCEPTANCE_MESSAGES.notOffered,
    );
    expect(acceptRefusal(order(), offered, 'old', NOW)).toEqual({
      status: 409,
      message: ACCEPTANCE_MESSAGES.changed,
      estimateVersion: v,
    });
  });
  it("another tab's answer: accepted by the same customer for the same version only", () => {
    const accepted = { ...offered, acceptance: { userId: 'u1', estimateVersion: v } as never };
    expect(acceptedAsAsked(order(), accepted, 'u1', v, NOW)).toBe(true);
    expect(acceptedAsAsked(order(), accepted, 'u2', v, NOW)).toBe(false);
    expect(acceptedAsAsked(order(), accepted, 'u1', 'old', NOW)).toBe(false);
    expect(acceptedAsAsked(order(), offered, 'u1', v, NOW)).toBe(false);
  });
  it('a voided signature may be signed again', () => {
    expect(acceptRefusal(order(), { ...offered, voidedChanges: ['location'] }, v, NOW)).toBeNull();
  });
});

describe('the view and the offer', () => {
  it('the deposit of the offer, its expiry, the frame only when a deposit is due', () => {
    expect(offer).toMatchObject({
      depositCents: 9375,
      agreementVersion: 3,
      expiresAt: new Date('2030-05-15T12:00:00Z'),
    });
    const view = acceptanceView(
      order(),
      offered,
      { version: 3, text: 'T' },
      { now: NOW, paymentFrameUrl: 'http://f' },
    );
    expect(view).toMatchObject({
      state: 'awaiting',
      deposit: { amount: 93.75, currency: 'USD' },
      expiresAt: '2030-05-15T12:00:00.000Z',
      paymentFrameUrl: 'http://f',
    });
    const free = { ...offered, offer: { ...offer, depositCents: 0 } };
    expect(
      acceptanceView(order(), free, { version: 3, text: 'T' }, { now: NOW, paymentFrameUrl: 'http://f' }),
    ).not.toHaveProperty('paymentFrameUrl');
  });
  it("the provider's key: one per estimate, version and card; a new attempt after a cancel", () => {
    expect(authorisationKey('e1', 'v', 'pm_card_visa', 0)).toBe('accept:e1:v:pm_card_visa');
    expect(authorisationKey('e1', 'v', 'pm_card_visa', 2)).toBe('accept:e1:v:pm_card_visa:2');
  });
});
