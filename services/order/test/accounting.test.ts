/** An estimate turns Open once accounting-sync reports it landed in QuickBooks (spec §4). */
import { QboRecordSynced } from '@decor/contracts';
import { consumerCaughtUp } from '@decor/kit/testing';
import {
  addCustomer,
  cartProjected,
  cartState,
  estimateBody,
  eventsOf,
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

it("a send's status, its offer and EstimateOffered are one write: a crash after the first write cannot leave the estimate unoffered", async () => {
  const { id } = await submittedEstimate();
  // The process "dies" after its first write to this estimate: every later write fails once, and the
  // event is delivered again (a redelivered send decides "nothing to change").
  const estimates = service.ctx.estimates;
  const original = estimates.updateOne;
  let writes = 0;
  estimates.updateOne = function (this: typeof estimates, ...args: Parameters<typeof original>) {
    const filter = args[0] as { _id?: unknown };
    if (String(filter?._id) === id && ++writes === 2) throw new Error('killed after the first write');
    return original.apply(this, args);
  } as typeof original;
  try {
    await synced(id, 'created');
  } finally {
    estimates.updateOne = original;
  }
  const stored = await estimates
    .findById(id, { status: 1, offer: 1 })
    .lean<{ status: string; offer: unknown }>();
  expect(stored?.status).toBe('Open');
  expect(stored?.offer).toMatchObject({ agreementVersion: expect.any(Number) });
  const offered = (await eventsOf(service, id)).filter((e) => e.type === 'EstimateOffered');
  expect(offered).toHaveLength(1);
  expect(offered[0]?.payload).toMatchObject({ opened: true, order: { id, status: 'Open' } });
});

it('never reopens a terminal estimate', async () => {
  const { id, customer } = await submittedEstimate();
  await service.ctx.estimates.updateOne({ _id: id }, { $set: { status: 'Voided' } });
  await synced(id, 'created');
  expect((await request(service.url, `/estimate/${id}`, { token: customer.token })).body.result.status).toBe(
    'Voided',
  );
});
