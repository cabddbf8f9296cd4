import { type Actor, QboRecordSynced } from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import { isValidObjectId } from 'mongoose';
import type { OrderContext } from '../context';
import { offerWithSend } from '../store/accept';
import { changeOrder } from '../store/orders';

const SYSTEM: Actor = { role: 'system', userId: null };

/**
 * From accounting-sync: a QuickBooks write of an estimate or invoice, through the one `decide`
 * (command qboSynced). An estimate created or updated there is Open, isInQbo, no longer modified;
 * an invoice also opens when sent from there (spec §4). Other outcomes (rejected, voided) and any
 * outcome for a terminal order only record the QuickBooks id and SyncToken: never reopened. The
 * change, its event and a sent estimate's offer (with EstimateOffered) are one guarded write; a
 * redelivered outcome decides "nothing to change".
 */
export function accountingEventHandlers(ctx: OrderContext): Record<string, EventHandler> {
  return eventHandler(QboRecordSynced, async ({ payload, correlationId }) => {
    if ((payload.kind !== 'estimate' && payload.kind !== 'invoice') || !isValidObjectId(payload.recordId))
      return;
    await changeOrder(
      ctx,
      payload.kind,
      payload.recordId,
      {
        action: 'qboSynced',
        qboAction: payload.action,
        qboId: payload.qboId,
        syncToken: payload.syncToken,
        ...(payload.sourceRevision === undefined ? {} : { sourceRevision: payload.sourceRevision }),
      },
      SYSTEM,
      correlationId,
      undefined,
      // Issue 30: sent means offered — the agreement version and deposit in force now are its own.
      { alongside: offerWithSend(ctx) },
    );
  });
}
