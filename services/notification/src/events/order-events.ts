import {
  AgreementSigned,
  EstimateOfferExpired,
  EstimateOfferExtended,
  EstimateOffered,
  EstimateStatusChanged,
  EstimateSubmitted,
  EstimateUpdated,
  InvoiceCompleted,
  InvoiceCreated,
  InvoiceStatusChanged,
  InvoiceUpdated,
  SignatureVoided,
} from '@decor/contracts';
import { type EventHandler, eventHandler } from '@decor/kit';
import type { NotificationContext } from '../context';
import { agreementSignedEmails } from '../domain/agreement-emails';
import { estimateReceivedEmail, newEstimateStaffEmail } from '../domain/estimate-emails';
import { type OrderLifecycleEvent, orderEventEmails } from '../domain/order-emails';
import { enqueueEmail } from '../jobs/email-queue';

export function orderEventHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  // Each e-mail of an event has its own job id, `<eventId>.<recipient>`: a redelivery (or a retry
  // after one of two was queued) adds none again, and two instances never queue one twice.
  const lifecycle = async (event: { id: string } & OrderLifecycleEvent) => {
    for (const { recipient, email } of orderEventEmails(ctx.brand, ctx.config.STAFF_EMAIL, event))
      await enqueueEmail(ctx.emails, `${event.id}.${recipient}`, email);
  };
  return {
    ...eventHandler(EstimateSubmitted, async (event) => {
      await enqueueEmail(ctx.emails, `${event.id}.customer`, estimateReceivedEmail(ctx.brand, event.payload));
      await enqueueEmail(
        ctx.emails,
        `${event.id}.staff`,
        newEstimateStaffEmail(ctx.brand, ctx.config.STAFF_EMAIL, event.payload),
      );
    }),
    // Issue 30: the acceptance's confirmation, the signed agreement attached.
    ...eventHandler(AgreementSigned, async (event) => {
      for (const { recipient, email } of agreementSignedEmails(
        ctx.brand,
        ctx.config.STAFF_EMAIL,
        event.payload,
      ))
        await enqueueEmail(ctx.emails, `${event.id}.${recipient}`, email);
    }),
    ...eventHandler(EstimateUpdated, (e) =>
      lifecycle({ id: e.id, type: 'EstimateUpdated', payload: e.payload }),
    ),
    ...eventHandler(InvoiceUpdated, (e) =>
      lifecycle({ id: e.id, type: 'InvoiceUpdated', payload: e.payload }),
    ),
    ...eventHandler(EstimateStatusChanged, (e) =>
      lifecycle({ id: e.id, type: 'EstimateStatusChanged', payload: e.payload }),
    ),
    ...eventHandler(InvoiceStatusChanged, (e) =>
      lifecycle({ id: e.id, type: 'InvoiceStatusChanged', payload: e.payload }),
    ),
    ...eventHandler(InvoiceCreated, (e) =>
      lifecycle({ id: e.id, type: 'InvoiceCreated', payload: e.payload }),
    ),
    ...eventHandler(EstimateOffered, (e) =>
      lifecycle({ id: e.id, type: 'EstimateOffered', payload: e.payload }),
    ),
    ...eventHandler(SignatureVoided, (e) =>
      lifecycle({ id: e.id, type: 'SignatureVoided', payload: e.payload }),
    ),
    ...eventHandler(EstimateOfferExpired, (e) =>
      lifecycle({ id: e.id, type: 'EstimateOfferExpired', payload: e.payload }),
    ),
    ...eventHandler(EstimateOfferExtended, (e) =>
      lifecycle({ id: e.id, type: 'EstimateOfferExtended', payload: e.payload }),
    ),
    ...eventHandler(InvoiceCompleted, (e) =>
      lifecycle({ id: e.id, type: 'InvoiceCompleted', payload: e.payload }),
    ),
  };
}
