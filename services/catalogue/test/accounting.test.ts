/** The catalogue records a product's QuickBooks id once accounting-sync reports it, with an event. */
import { ProductUpserted, QboRecordSynced } from '@decor/contracts';
import { newEvent, publishEnvelopes } from '@decor/kit';
import { consumerCaughtUp, RUN_ID } from '@decor/kit/testing';
import { type Catalogue, catalogueEvents, startCatalogue, stopAndClean } from './support';

let service: Catalogue;
beforeAll(async () => {
  service = await startCatalogue();
});
afterAll(() => stopAndClean(service));

async function synced(recordId: string, qboId: string, syncToken: string) {
  const event = newEvent(QboRecordSynced, {
    aggregateId: `product:${recordId}`,
    correlationId: 'test',
    payload: { kind: 'product', recordId, qboId, syncToken, action: 'created', revision: 1 },
  });
  await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, [event]);
  await consumerCaughtUp(service.ctx, 'accounting', 'accounting');
}

it('stores the QuickBooks id and SyncToken of a product and announces them in ProductUpserted', async () => {
  const before = await service.ctx.products.findById('BAR-FR-001').lean();
  expect(before?.qboId).toBeNull();
  await synced('BAR-FR-001', '31', '0');
  const after = await service.ctx.products.findById('BAR-FR-001').lean();
  expect(after).toMatchObject({
    qboId: '31',
    syncToken: '0',
    name: before?.name,
    priceCents: before?.priceCents,
  });
  const events = await catalogueEvents(service.ctx.kafka, (all) =>
    all.some((e) => e.type === ProductUpserted.type && (e.payload as { qboId?: string }).qboId === '31'),
  );
  expect(events.filter((e) => (e.payload as { qboId?: string }).qboId === '31')).toHaveLength(1);

  // The same report again (a redelivery, or the sync's own echo) changes nothing and announces nothing.
  await synced('BAR-FR-001', '31', '0');
  expect((await service.ctx.products.findById('BAR-FR-001').lean())?.updatedAt).toEqual(after?.updatedAt);
  // Unknown (deleted) products stay unknown.
  await synced('NO-SUCH-SKU', '99', '0');
  expect(await service.ctx.products.findById('NO-SUCH-SKU').lean()).toBeNull();
});
