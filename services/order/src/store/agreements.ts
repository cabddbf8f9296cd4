import { AgreementSigned } from '@decor/contracts';
import { newEvent } from '@decor/kit';
import type { OrderContext } from '../context';
import { orderState } from '../domain/decide';
import { type Estimate, estimateRecord } from './estimate-model';
import { HIDDEN } from './orders';

/**
 * Records the signed agreement made for the acceptance of `acceptedAt` — its key and its bytes'
 * SHA-256 — with AgreementSigned in the outbox, in one revision-guarded write. Nothing when that
 * acceptance is no longer the estimate's (a change voided it) or already has its PDF.
 */
export async function recordAgreement(
  ctx: OrderContext,
  estimateId: string,
  acceptedAt: Date,
  pdf: { key: string; sha256: string },
  correlationId: string,
): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await ctx.estimates.findById(estimateId, HIDDEN).lean<Estimate>();
    const acceptance = doc?.acceptance;
    if (!doc || !acceptance || new Date(acceptance.at).getTime() !== acceptedAt.getTime()) return false;
    if (acceptance.pdf) return false;
    const order = { ...estimateRecord(doc), revision: (doc.revision ?? 0) + 1 };
    const event = newEvent(AgreementSigned, {
      aggregateId: order.id,
      correlationId,
      payload: {
        order: orderState(order),
        estimateId: order.id,
        docNumber: order.docNumber,
        signerName: acceptance.signerName,
        acceptedAt: acceptedAt.toISOString(),
        pdfKey: pdf.key,
        sha256: pdf.sha256,
      },
    });
    const res = await ctx.estimates.updateOne(
      { _id: doc._id, revision: doc.revision ?? 0, 'acceptance.at': acceptance.at },
      { $set: { 'acceptance.pdf': pdf }, $inc: { revision: 1 }, $push: { outbox: event } },
    );
    if (res.matchedCount > 0) {
      ctx.eventsWritten();
      return true;
    }
  }
  return false;
}
