import { randomUUID } from 'node:crypto';
import {
  type OrderType,
  permission,
  refusalHttpStatus,
  refusalMessage,
  type SyncedRecordKind,
} from '@decor/contracts';
import { HttpError, notFound, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { AccountingSyncContext } from '../context';
import { splitCategoryKey } from '../domain/documents';
import { orderFacts } from '../domain/order-facts';
import { enqueueSync, type SyncAction } from '../jobs/sync-queue';
import type { QboEntity } from '../qbo/client';
import { orderSyncRecord, recordByQboId, recordOfKinds } from '../store/record-reads';
import { liveRead } from './live-read';
import { qboSessionExpired } from './texts';

/** Who asks the lifecycle here: the routes are staff's. */
const STAFF = { role: 'staff', userId: null } as const;

const Enqueued = Type.Object({ result: Type.Object({ jobId: Type.String(), state: Type.String() }) });
const IdBody = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
const LABELS: Record<SyncedRecordKind, string> = {
  company: 'Company',
  customer: 'User',
  category: 'Category',
  product: 'Product',
  estimate: 'Estimate',
  invoice: 'Invoice',
  payment: 'Deposit',
  refund: 'Deposit refund',
};

/**
 * The staff calls of spec §7 under /qbo. Writes enqueue a job and answer 202 with its state (200
 * when that very job already ran); the outcome reaches the owning service as QboRecordSynced.
 * Reads (categories) ask QuickBooks directly; the import listing is in import-users.ts.
 */
export async function staffSyncRoutes(app: ServiceApp, ctx: AccountingSyncContext): Promise<void> {
  const staff = { onRequest: app.requireRole('staff') };

  async function requireSession() {
    if (!(await ctx.sessions.status()).connected) throw qboSessionExpired();
  }

  /**
   * An order's write is the lifecycle's sendToQbo (POST) or updateInQbo (PUT), decided by the one
   * table in contracts from this service's projection of the order events (caught up first, so an
   * edit made just before counts): a refusal is the order service's 409 and sentence, nothing enqueued.
   */
  async function refuseByLifecycle(kind: OrderType, id: string, action: 'sendToQbo' | 'updateInQbo') {
    await ctx.catchUpOrders();
    const rec = await orderSyncRecord(ctx, kind, id);
    if (!rec) return;
    const facts = orderFacts({ kind, data: rec.data, qboId: rec.qboId });
    // Staff's QuickBooks actions have no date guard: today only completes the signature.
    const answer = permission(facts, { action }, STAFF, new Date().toISOString().slice(0, 10));
    if ('refuse' in answer)
      throw new HttpError(refusalHttpStatus(answer.refuse), refusalMessage(answer.refuse, facts.status));
  }

  async function enqueueFor(
    kinds: SyncedRecordKind[],
    id: string,
    action: SyncAction,
    extra: { sendTo?: string; nonce?: string; lifecycle?: 'sendToQbo' | 'updateInQbo' } = {},
  ) {
    const { lifecycle, ...job } = extra;
    const kind = kinds[0] as SyncedRecordKind;
    // A refused write needs no QuickBooks: the lifecycle answers before the session is asked for.
    if (lifecycle && (kind === 'estimate' || kind === 'invoice'))
      await refuseByLifecycle(kind, id, lifecycle);
    await requireSession();
    const rec = await recordOfKinds(ctx, kinds, id);
    if (!rec) throw notFound(`${LABELS[kind]} not found`);
    return enqueueSync(ctx.syncQueue, {
      kind: rec.kind,
      recordId: id,
      action,
      revision: rec.revision,
      ...job,
    });
  }

  const writeRoute = (method: 'POST' | 'PUT', url: string, kinds: SyncedRecordKind[], summary: string) =>
    app.route({
      method,
      url,
      ...staff,
      schema: {
        summary,
        security: [{ session: [] }],
        body: IdBody,
        response: { 200: Enqueued, 202: Enqueued },
      },
      handler: async (request, reply) => {
        const lifecycle = method === 'POST' ? 'sendToQbo' : 'updateInQbo';
        const job = await enqueueFor(kinds, (request.body as { id: string }).id, 'upsert', { lifecycle });
        reply.code(job.state === 'completed' ? 200 : 202);
        return { result: job };
      },
    });

  writeRoute(
    'POST',
    '/qbo/estimate',
    ['estimate'],
    'Send an estimate to QuickBooks (it turns Open when it lands)',
  );
  writeRoute('PUT', '/qbo/estimate/', ['estimate'], 'Update an estimate in QuickBooks');
  writeRoute('POST', '/qbo/invoice', ['invoice'], 'Create an invoice in QuickBooks');
  writeRoute('PUT', '/qbo/invoice/', ['invoice'], 'Update an invoice in QuickBooks');
  writeRoute(
    'POST',
    '/qbo/user',
    ['customer', 'company'],
    'Create or update a customer or company in QuickBooks',
  );
  writeRoute('POST', '/qbo/product', ['product'], 'Create a product in QuickBooks');
  writeRoute('PUT', '/qbo/product', ['product'], 'Update a product in QuickBooks');

  app.post(
    '/qbo/send/:type/:qboId',
    {
      ...staff,
      schema: {
        summary: 'E-mail an estimate or invoice from QuickBooks (to `email`, else its billing address)',
        security: [{ session: [] }],
        params: Type.Object({
          type: Type.Union([Type.Literal('estimate'), Type.Literal('invoice')]),
          qboId: Type.String({ pattern: '^[0-9A-Za-z-]{1,40}$' }),
        }),
        body: Type.Optional(
          Type.Object({ email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })) }),
        ),
        response: { 200: Enqueued, 202: Enqueued },
      },
    },
    async (request, reply) => {
      await requireSession();
      const { type, qboId } = request.params;
      const rec = await recordByQboId(ctx, type, qboId);
      if (!rec) throw notFound(`${LABELS[type]} not found`);
      const nonce = String(request.headers['idempotency-key'] ?? randomUUID()).slice(0, 64);
      const job = await enqueueFor([type], rec.recordId, 'send', { sendTo: request.body?.email, nonce });
      reply.code(job.state === 'completed' ? 200 : 202);
      return { result: job };
    },
  );

  const Category = Type.Object({ Id: Type.String(), Name: Type.String() });
  app.get(
    '/qbo/categories',
    {
      ...staff,
      schema: {
        summary: "QuickBooks' category items: top-level categories and subcategories (with ParentRef)",
        security: [{ session: [] }],
        response: {
          200: Type.Object({
            result: Type.Object({
              categories: Type.Array(Category),
              subcategories: Type.Array(
                Type.Object({
                  Id: Type.String(),
                  Name: Type.String(),
                  ParentRef: Type.Object({ value: Type.String() }),
                }),
              ),
            }),
          }),
        },
      },
    },
    async () => {
      const items = await liveRead(() => ctx.api.query('Item', "where Type = 'Category'"));
      const pick = (i: QboEntity) => ({ Id: String(i.Id), Name: splitCategoryKey(String(i.Name)).name });
      return {
        result: {
          categories: items.filter((i) => !i.SubItem).map(pick),
          subcategories: items
            .filter((i) => i.SubItem && i.ParentRef)
            .map((i) => ({ ...pick(i), ParentRef: { value: String(i.ParentRef.value) } })),
        },
      };
    },
  );
}
