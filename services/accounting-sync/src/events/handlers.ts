import {
  CategoryUpserted,
  CompanyDeleted,
  CompanyUpserted,
  DepositCaptured,
  EstimateDepositChanged,
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
  UserDeleted,
  UserUpdated,
} from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { Static } from '@sinclair/typebox';
import type { AccountingSyncContext } from '../context';
import { contentHash } from '../domain/documents';
import { planFor } from '../jobs/plans';
import { enqueueSync } from '../jobs/sync-queue';
import { recordKey, type SyncRecordDoc } from '../store/record-model';

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
  { sync = true, adopt }: { sync?: boolean; adopt?: { qboId: string; hash: string | null } } = {},
): Promise<number> {
  const rec = await ctx.records.findOneAndUpdate(
    { _id: recordKey(kind, recordId) },
    {
      $set: { kind, recordId, data, label },
      $inc: { revision: 1 },
      // A record that arrives already in QuickBooks (imported with its qboId) adopts that record: its
      // document counts as written, so the job finds it unchanged and never creates a second one.
      ...(adopt ? { $setOnInsert: { qboId: adopt.qboId, syncedHash: adopt.hash } } : {}),
    },
    { upsert: true, new: true, projection: { revision: 1 } },
  );
  const revision = rec?.revision ?? 1;
  if (sync) await enqueueSync(ctx.syncQueue, { kind, recordId, action: 'upsert', revision });
  return revision;
}

/**
 * An imported record's QuickBooks id and the hash of the document this service would write for it:
 * the record adopts that id with that hash, so only a later change is written (an update). A customer
 * whose company is not in QuickBooks yet (its event not handled yet) gets no hash: its job waits for
 * the company and then updates the adopted record.
 */
async function adoption(
  ctx: AccountingSyncContext,
  kind: 'company' | 'customer',
  recordId: string,
  data: Record<string, unknown>,
  qboId: string | undefined,
): Promise<{ qboId: string; hash: string | null } | undefined> {
  if (!qboId) return undefined;
  const plan = await planFor({ _id: recordKey(kind, recordId), kind, recordId, data } as SyncRecordDoc, {
    records: ctx.records,
    serviceItem: ctx.serviceItem,
    truckingItemName: ctx.config.QBO_TRUCKING_ITEM,
    laborItemName: ctx.config.QBO_LABOR_ITEM,
  });
  return { qboId, hash: 'doc' in plan ? contentHash(plan.doc) : null };
}

/**
 * A money movement (a deposit taken or refunded, issue 30): one record per PaymentIntent, stored
 * once, so a redelivered event changes nothing and its job (the same id) is not added again.
 */
async function rememberOnce(
  ctx: AccountingSyncContext,
  kind: 'payment' | 'refund',
  recordId: string,
  data: Record<string, unknown>,
  label: string,
): Promise<void> {
  const rec = await ctx.records.findOneAndUpdate(
    { _id: recordKey(kind, recordId) },
    { $setOnInsert: { kind, recordId, data, label, revision: 1 } },
    { upsert: true, new: true, projection: { revision: 1 } },
  );
  await enqueueSync(ctx.syncQueue, { kind, recordId, action: 'upsert', revision: rec?.revision ?? 1 });
}

/** A customer's fields for its QuickBooks record, from UserCreated or UserUpdated. */
function customerData(u: Static<typeof UserCreated.payload> | Static<typeof UserUpdated.payload>) {
  return {
    id: u.userId,
    displayName: u.displayName,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phone: u.phone,
    companyId: u.companyId,
    ownCompany: u.ownCompany,
    // Suspending a customer closes the site to them; their QuickBooks customer stays active.
    active: true,
  };
}

/** Marks the record deleted on the site (the import listing no longer counts it); QuickBooks keeps it. */
const forget = (ctx: AccountingSyncContext, kind: 'company' | 'customer', recordId: string, at: string) =>
  ctx.records.updateOne({ _id: recordKey(kind, recordId) }, { $set: { deletedAt: new Date(at) } });

export function userEventHandlers(ctx: AccountingSyncContext): Record<string, EventHandler> {
  const rememberCustomer = async (
    u: Static<typeof UserCreated.payload> | Static<typeof UserUpdated.payload>,
  ) => {
    // Only customers are QuickBooks customers; staff accounts are not.
    if (u.permissions !== 'customer') return;
    const data = customerData(u);
    await rememberRecord(ctx, 'customer', u.userId, data, u.displayName, {
      adopt: await adoption(ctx, 'customer', u.userId, data, u.qboId),
    });
  };
  return {
    ...eventHandler(UserCreated, async ({ payload }) => rememberCustomer(payload)),
    // A changed profile is written to its QuickBooks customer (unchanged content: no write).
    ...eventHandler(UserUpdated, async ({ payload }) => rememberCustomer(payload)),
    ...eventHandler(
      UserDeleted,
      async ({ payload: u }) => void (await forget(ctx, 'customer', u.userId, u.at)),
    ),
    ...eventHandler(CompanyUpserted, async ({ payload: c }) => {
      const data = { ...c, id: c.companyId };
      await rememberRecord(ctx, 'company', c.companyId, data, c.displayName, {
        adopt: await adoption(ctx, 'company', c.companyId, data, c.qboId),
      });
    }),
    ...eventHandler(
      CompanyDeleted,
      async ({ payload: c, occurredAt }) => void (await forget(ctx, 'company', c.companyId, occurredAt)),
    ),
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
    // The lifecycle's facts: the QuickBooks write calls are decided from them (domain/order-facts).
    status: order.status,
    isInQbo: order.isInQbo,
    hasBeenModified: order.hasBeenModified,
    hasInvoice: order.hasInvoice ?? false,
  };
}

/**
 * Orders: their latest state is stored (staff send or update them in QuickBooks from the order
 * screen); a cancelled order that is in QuickBooks is rejected (estimate) or voided (invoice) there.
 * A deposit taken for an invoice (issue 30) becomes a QuickBooks Payment applied to it, once.
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
        status: e.status,
        isInQbo: false,
        hasBeenModified: false,
        hasInvoice: false,
      };
      await rememberRecord(ctx, 'estimate', e.estimateId, data, `Estimate ${e.docNumber}`, { sync: false });
    }),
    ...eventHandler(EstimateUpdated, async ({ payload }) => void (await remember(payload.order))),
    ...eventHandler(InvoiceCreated, async ({ payload }) => void (await remember(payload.order))),
    ...eventHandler(InvoiceUpdated, async ({ payload }) => void (await remember(payload.order))),
    ...eventHandler(EstimateStatusChanged, async ({ payload }) => cancelled(payload.order)),
    ...eventHandler(InvoiceStatusChanged, async ({ payload }) => cancelled(payload.order)),
    // A deposit waits for its invoice to be in QuickBooks, a refund for the deposit (the worker).
    ...eventHandler(DepositCaptured, async ({ payload: d }) =>
      rememberOnce(ctx, 'payment', d.intentId, d, `Deposit on ${d.docNumber}`),
    ),
    ...eventHandler(EstimateDepositChanged, async ({ payload: { deposit, order, from }, occurredAt }) => {
      if (deposit.state !== 'refunded' || from !== 'captured' || !deposit.intentId) return;
      const data = {
        intentId: deposit.intentId,
        userId: order.userId,
        docNumber: order.docNumber,
        amountCents: deposit.amountCents,
        refundedAt: occurredAt,
      };
      await rememberOnce(ctx, 'refund', deposit.intentId, data, `Deposit refund on ${order.docNumber}`);
    }),
  };
}
