import { QboRecordSynced } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import { isValidObjectId } from 'mongoose';
import type { OrderContext } from '../context';

/**
 * From accounting-sync: an estimate that landed in QuickBooks (created or updated there) is Open,
 * isInQbo, and no longer modified (spec §4); other QuickBooks writes (sent, rejected) only move its
 * SyncToken. Terminal estimates are never reopened.
 */
export function accountingEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return eventHandler(QboRecordSynced, async ({ payload }) => {
    if (payload.kind !== 'estimate' || !isValidObjectId(payload.recordId)) return;
    const landed = payload.action === 'created' || payload.action === 'updated';
    await ctx.estimates.updateOne(
      { _id: payload.recordId, status: { $in: ['Pending', 'Open'] } },
      {
        $set: landed
          ? {
              status: 'Open',
              isInQbo: true,
              hasBeenModified: false,
              qboId: payload.qboId,
              syncToken: payload.syncToken,
            }
          : { syncToken: payload.syncToken },
      },
    );
  });
}
