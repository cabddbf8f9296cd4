import { QboRecordSynced } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { CatalogueContext } from '../context';
import { LIVE, productState } from '../store/product-model';
import { productEvent } from '../store/writes';

/**
 * A product reached QuickBooks: the catalogue records its QuickBooks id and SyncToken (spec §3) and
 * announces them with ProductUpserted, so caches and the carts' copies learn them too. The write is
 * guarded by the revision read: a product changed meanwhile is read again. A product deleted
 * meanwhile stays deleted; an unchanged id changes nothing (no event, no loop).
 */
export function accountingEventHandlers(ctx: CatalogueContext): Record<string, EventHandler> {
  return eventHandler(QboRecordSynced, async (event) => {
    const { kind, recordId, qboId, syncToken } = event.payload;
    if (kind !== 'product') return;
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await ctx.products.findOne({ _id: recordId, ...LIVE }).lean();
      if (!doc || (doc.qboId === qboId && doc.syncToken === syncToken)) return;
      const written = await ctx.products.updateOne(
        { _id: recordId, ...LIVE, revision: doc.revision ?? null },
        {
          $set: { qboId, syncToken },
          $inc: { revision: 1 },
          $push: { outbox: productEvent({ ...productState(doc), qboId, syncToken }, event.correlationId) },
        },
      );
      if (written.modifiedCount > 0) return ctx.catalogueChanged();
    }
    throw new Error(`product ${recordId} kept changing while its QuickBooks id was recorded`);
  });
}
