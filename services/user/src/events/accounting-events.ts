import { QboConnectionChanged, QboRecordSynced } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import { isValidObjectId } from 'mongoose';
import type { UserContext } from '../context';
import { ACCOUNTING_CONNECTION_ID } from '../store/accounting-connection-model';

/**
 * From accounting-sync: whether QuickBooks is connected (staff sign-in redirects there when not),
 * and the QuickBooks ids of customers and companies once they are in QuickBooks.
 */
export function accountingEventHandlers(ctx: UserContext): Record<string, EventHandler> {
  return {
    ...eventHandler(QboConnectionChanged, async (event) => {
      const { connected, realmId } = event.payload;
      try {
        await ctx.accountingConnection.updateOne(
          { _id: ACCOUNTING_CONNECTION_ID, at: { $lte: event.occurredAt } },
          { $set: { connected, realmId, at: event.occurredAt } },
          { upsert: true },
        );
      } catch (err) {
        // A newer state is stored: the upsert's insert hit the existing _id.
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    }),
    ...eventHandler(QboRecordSynced, async ({ payload }) => {
      if (!isValidObjectId(payload.recordId)) return;
      if (payload.kind === 'customer')
        await ctx.users.updateOne({ _id: payload.recordId }, { $set: { qboId: payload.qboId } });
      if (payload.kind === 'company')
        await ctx.companies.updateOne({ _id: payload.recordId }, { $set: { qboId: payload.qboId } });
    }),
  };
}
