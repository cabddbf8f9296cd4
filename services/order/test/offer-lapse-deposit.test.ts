/**
 * Issue 30: an offer that ends unaccepted while a deposit is still authorised (a change voided the
 * signature, the estimate was sent again, nobody signed again) lets the deposit go: the sweep, after
 * the lapse's write, cancels the PaymentIntent and records 'released' — once with two sweeps racing,
 * caught up by the next sweep after a crash or a provider outage, never after staff extended it.
 * Real Kafka, Mongo and the shared payments emulator.
 */
import { eventually } from '@decor/kit/testing';
import { releaseLapsedDeposits, sweepExpiredOffers } from '../src/jobs/offer-expiry-sweeper';
import { ProviderDownError } from '../src/payments/provider';
import type { Estimate } from '../src/store/estimate-model';
import { expireOffer } from '../src/store/offer-expiry';
import {
  acceptAsReviewed,
  addCustomer,
  endOffer,
  eventsOf,
  type Order,
  orderCall,
  paymentsSettings,
  qboSynced,
  startOrder,
  stopAndClean,
  submitted,
  type TestCustomer,
  tokenFor,
} from './support';

let service: Order;
let staff: string;
let alice: TestCustomer;

beforeAll(async () => {
  service = await startOrder({
    ...paymentsSettings('offer_lapse_deposit'),
    // The sweeps are run by hand below.
    OFFER_EXPIRY_SWEEP_MS: '3600000',
    HOLD_RECONCILE_AFTER_MS: '3600000',
    ACCEPTANCE_SWEEP_AFTER_MS: '3600000',
  });
  staff = tokenFor(service, 'admin');
  alice = await addCustomer(service);
}, 120_000);
afterAll(() => stopAndClean(service));

const stored = (id: string) => service.ctx.estimates.findById(id).lean<Estimate>();
const view = async (id: string) =>
  (await orderCall(service, 'GET', `/estimate/${id}/acceptance`, alice.token)).body.result;
const depositEvents = async (id: string) =>
  (await eventsOf(service, id)).filter((e) => e.type === 'EstimateDepositChanged');

/**
 * An Open estimate whose signature a staff edit voided and which was sent again: it awaits a new
 * signature ('voided') with the first deposit still authorised. Its intent's id.
 */
async function voidedWithDepositHeld(): Promise<{ id: string; intentId: string }> {
  const { id } = await submitted(service, alice);
  await qboSynced(service, 'estimate', id, 'created');
  expect((await acceptAsReviewed(service, alice, id)).status).toBe(201);
  const edit = await orderCall(service, 'PUT', `/estimate/${id}`, staff, { location: 'The Orangery' });
  expect(edit.status).toBe(200);
  await eventually(
    async () => ((await stored(id))?.acceptance === null ? true : undefined),
    20_000,
    'the signature voided',
  );
  await qboSynced(service, 'estimate', id, 'updated');
  expect(await view(id)).toMatchObject({ state: 'voided', cardRequired: false });
  const deposit = (await stored(id))?.deposit;
  expect(deposit?.state).toBe('authorised');
  const intentId = deposit?.intentId as string;
  expect((await service.ctx.payments.retrieve(intentId)).status).toBe('requires_capture');
  return { id, intentId };
}

describe("a lapsed offer's authorised deposit", () => {
  it('is released at the provider after the lapse, once with two sweeps racing', async () => {
    const { id, intentId } = await voidedWithDepositHeld();
    await endOffer(service, id);

    const [a, b] = await Promise.all([sweepExpiredOffers(service.ctx), sweepExpiredOffers(service.ctx)]);
    expect(a + b).toBe(1);
    const doc = await stored(id);
    expect(doc?.offer?.lapsed).toBeTruthy();
    expect(doc?.deposit).toMatchObject({ intentId, state: 'released' });
    expect((await service.ctx.payments.retrieve(intentId)).status).toBe('canceled');

    const changed = await depositEvents(id);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      correlationId: `offer-expired-${id}-${new Date(doc?.offer?.expiresAt as Date).getTime()}`,
      payload: { from: 'authorised', deposit: { intentId, state: 'released' } },
    });
    // Nothing left to do: later sweeps write nothing more.
    expect(await sweepExpiredOffers(service.ctx)).toBe(0);
    expect(await releaseLapsedDeposits(service.ctx)).toBe(0);
    expect(await depositEvents(id)).toHaveLength(1);
    // Nothing is held on the card any more: an extension would ask for a card again.
    expect(await view(id)).toMatchObject({ state: 'expired', cardRequired: true });
  });

  it('a crash after the lapse was written, or the provider down: the next sweep releases it', async () => {
    const { id, intentId } = await voidedWithDepositHeld();
    await endOffer(service, id);
    // What a process that died right after the lapse's write leaves: lapsed, the deposit held.
    expect(await expireOffer(service.ctx, id)).toBe(true);
    expect((await stored(id))?.deposit?.state).toBe('authorised');

    // The provider does not answer this time: logged, the deposit stays authorised.
    const { cancel } = service.ctx.payments;
    service.ctx.payments.cancel = async () => {
      throw new ProviderDownError('unreachable (test)');
    };
    try {
      expect(await sweepExpiredOffers(service.ctx)).toBe(0);
    } finally {
      service.ctx.payments.cancel = cancel;
    }
    expect((await stored(id))?.deposit?.state).toBe('authorised');
    expect((await service.ctx.payments.retrieve(intentId)).status).toBe('requires_capture');

    await sweepExpiredOffers(service.ctx);
    expect((await stored(id))?.deposit?.state).toBe('released');
    expect((await service.ctx.payments.retrieve(intentId)).status).toBe('canceled');
    expect(await depositEvents(id)).toHaveLength(1);
  });

  it('staff extended the offer before the release: the deposit stays authorised', async () => {
    const { id, intentId } = await voidedWithDepositHeld();
    await endOffer(service, id);
    expect(await expireOffer(service.ctx, id)).toBe(true);
    const extended = await orderCall(service, 'POST', `/estimate/${id}/acceptance/extend`, staff, {
      days: 7,
    });
    expect(extended.status).toBe(200);
    expect(extended.body.result).toMatchObject({ state: 'voided', cardRequired: false });

    await sweepExpiredOffers(service.ctx);
    expect((await stored(id))?.deposit?.state).toBe('authorised');
    expect((await service.ctx.payments.retrieve(intentId)).status).toBe('requires_capture');
    expect(await depositEvents(id)).toEqual([]);
  });
});
