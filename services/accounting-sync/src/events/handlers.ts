import {
  CategoryUpserted,
  CompanyUpserted,
  EstimateStatusChanged,
  EstimateSubmitted,
  EstimateUpdated,
  InvoiceCreated,
  InvoiceStatusChanged,
  InvoiceUpdated,
  type OrderState,
  ProductDeleted,
  ProductUpserted,
  type SyncedRecordKind,
  toDollars,
  UserCreated,
} from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { Static } from '@sinclair/typebox';
import type { AccountingSyncContext } from '../context';
import { enqueueSync } from '../jobs/sync-queue';
import { recordKey } from '../store/record-model';

/**
 * Records arrive only as events of their own services. Each event stores the record's latest state
 * and bumps its revision in one write; the sync job for that revision follows (its id derives from
 * the revision, so a redelivered event enqueues nothing new). Estimates are only stored: staff send
 * them to QuickBooks from the order screen.
 */
export async function rememberRecord(
  ctx: AccountingSyncContext,
  kind: SyncedRecordKind,
  recordId: string,
  data: Record<string, unknown>,
  label: string,
  { sync = true } = {},
): Promise<number> {
  const rec = await ctx.records.findOneAndUpdate(
    { _id: recordKey(kind, recordId) },
    { $set: { kind, recordId, data, label }, $inc: { revision: 1 } },
    { upsert: true, new: true, projection: { revision: 1 } },
  );
  const revision = rec?.revision ?? 1;
  if (sync) await enqueueSync(ctx.syncQueue, { kind, recordId, action: 'upsert', revision });
  return revision;
}

export function userEventHandlers(ctx: AccountingSyncContext): Record<string, EventHandler> {
  return {
    ...eventHandler(UserCreated, async ({ payload: u }) => {
      // Only customers are QuickBooks customers; staff accounts are not.
      if (u.permissions !== 'customer') return;
      const data = {
        id: u.userId,
        displayName: u.displayName,
        email: u.email,
        firstName: u.firstName,
        lastName: u.lastName,
        phone: u.phone,
        companyId: u.companyId,
        ownCompany: u.ownCompany,
        active: true,
      };
      await rememberRecord(ctx, 'customer', u.userId, data, u.displayName);
    }),
    ...eventHandler(CompanyUpserted, async ({ payload: c }) => {
      await rememberRecord(ctx, 'company', c.companyId, { ...c, id: c.companyId }, c.displayName);
    }),
  };
}

export function catalogueEventHandlers(ctx: AccountingSyncContext): Record<string, EventHandler> {
  return {
    ...eventHandler(ProductUpserted, async ({ payload: p }) => {
      const data = {
        sku: p.sku,
        name: p.name,
        description: p.description,
        priceCents: p.priceCents,
        category: p.category,
        subcategory: p.subcategory,
        active: true,
      };
      await rememberRecord(ctx, 'product', p.sku, data, p.sku);
    }),
    ...eventHandler(ProductDeleted, async ({ payload: { sku } }) => {
      const rec = await ctx.records.findOneAndUpdate(
        { _id: recordKey('product', sku) },
        { $set: { 'data.active': false }, $inc: { revision: 1 } },
        { new: true, projection: { revision: 1, qboId: 1 } },
      );
      // Never in QuickBooks: nothing to deactivate there.
      if (rec?.qboId)
        await enqueueSync(ctx.syncQueue, {
          kind: 'product',
          recordId: sku,
          action: 'deactivate',
          revision: rec.revision,
        });
    }),
    ...eventHandler(CategoryUpserted, async ({ payload: c }) => {
      await rememberRecord(ctx, 'category', c.id, { id: c.id, name: c.name, parentId: c.parentId }, c.name);
    }),
  };
}

/** What a sync of an order needs, from its state in the order events. */
function orderData(order: Static<typeof OrderState>) {
  return {
    estimateId: order.id,
    docNumber: order.docNumber,
    userId: order.userId,
    details: order.details,
    lines: order.lines,
    subtotalCents: order.subtotalCents,
    truckingCents: order.truckingCents,
    customerEmail: order.customer.email,
    totalDollars: toDollars(order.totalCents),
    orderRevision: order.revision,
    ...(order.estimateId ? { linkedEstimateId: order.estimateId } : {}),
  };
}

/**
 * Orders: their latest state is stored (staff send or update them in QuickBooks from the order
 * screen); a cancelled order that is in QuickBooks is rejected (estimate) or voided (invoice) there.
 */
export function orderEventHandlers(ctx: AccountingSyncContext): Record<string, EventHandler> {
  const remember = (order: Static<typeof OrderState>) =>
    rememberRecord(
      ctx,
      order.orderType,
      order.id,
      orderData(order),
      `${order.orderType === 'invoice' ? 'Invoice' : 'Estimate'} ${order.docNumber}`,
      {
        sync: false,
      },
    );
  const cancelled = async (order: Static<typeof OrderState>) => {
    const revision = await remember(order);
    if (order.status !== 'Voided' || !order.isInQbo) return;
    const action = order.orderType === 'invoice' ? 'void' : 'reject';
    await enqueueSync(ctx.syncQueue, { kind: order.orderType, recordId: order.id, action, revision });
  };
  return {
    ...eventHandler(EstimateSubmitted, async ({ payload: e }) => {
      const data = {
        estimateId: e.estimateId,
        docNumber: e.docNumber,
        userId: e.userId,
        details: e.details,
        lines: e.lines,
        subtotalCents: e.subtotalCents,
        truckingCents: e.truckingCents,
        customerEmail: e.customer.email,
        totalDollars: toDollars(e.totalCents),
        orderRevision: 0,
      };
      await rememberRecord(ctx, 'estimate', e.estimateId, data, `Estimate ${e.docNumber}`, { sync: false });
    }),
    ...eventHandler(EstimateUpdated, async ({ payload }) => void (await remember(payload.order))),
    ...eventHandler(InvoiceCreated, async ({ payload }) => void (await remember(payload.order))),
    ...eventHandler(InvoiceUpdated, async ({ payload }) => void (await remember(payload.order))),
    ...eventHandler(EstimateStatusChanged, async ({ payload }) => cancelled(payload.order)),
    ...eventHandler(InvoiceStatusChanged, async ({ payload }) => cancelled(payload.order)),
  };
}
