/** An estimate turns Open once accounting-sync reports it landed in QuickBooks (spec §4). */
import { QboRecordSynced } from '@decor/contracts';
import { consumerCaughtUp } from '@decor/kit/testing';
import {
  addCustomer,
  cartProjected,
  cartState,
  estimateBody,
  line,
  type Order,
  publish,
  publishCart,
  request,
  startOrder,
  stopAndClean,
  submit,
  tokenFor,
} from './support';

let service: Order;
beforeAll(async () => {
  service = await startOrder();
});
afterAll(() => stopAndClean(service));

async function submittedEstimate() {
  const customer = await addCustomer(service);
  const cart = cartState(customer.id, [line('SEA-CH-001', 2, 1250)]);
  await cartProjected(service, cart.id, await publishCart(service, cart));
  const res = await submit(service, customer.token, estimateBody(cart.id));
  expect(res.status).toBe(201);
  return { id: res.body.result.id as string, customer };
}

async function synced(recordId: string, action: 'created' | 'sent', qboId = '145', syncToken = '0') {
  await publish(service, QboRecordSynced, `estimate:${recordId}`, {
    kind: 'estimate',
    recordId,
    qboId,
    syncToken,
    action,
    revision: 1,
  });
  await consumerCaughtUp(service.ctx, 'accounting', 'accounting');
}

it('is Pending until its QuickBooks sync lands, then Open, isInQbo, unmodified, with its QuickBooks id', async () => {
  const { id, customer } = await submittedEstimate();
  const before = await request(service.url, `/estimate/${id}`, { token: customer.token });
  expect(before.body.result).toMatchObject({ status: 'Pending', isInQbo: false, qboId: null });
  await service.ctx.estimates.updateOne({ _id: id }, { $set: { hasBeenModified: true } });

  await synced(id, 'created', '145', '0');
  const after = await request(service.url, `/estimate/${id}`, { token: tokenFor(service, 'admin') });
  expect(after.body.result).toMatchObject({
    status: 'Open',
    isInQbo: true,
    hasBeenModified: false,
    qboId: '145',
    syncToken: '0',
  });

  await synced(id, 'sent', '145', '1');
  const sent = await request(service.url, `/estimate/${id}`, { token: customer.token });
  expect(sent.body.result).toMatchObject({ status: 'Open', syncToken: '1' });
});

it('never reopens a terminal estimate', async () => {
  const { id, customer } = await submittedEstimate();
  await service.ctx.estimates.updateOne({ _id: id }, { $set: { status: 'Voided' } });
  await synced(id, 'created');
  expect((await request(service.url, `/estimate/${id}`, { token: customer.token })).body.result.status).toBe(
    'Voided',
  );
});
