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
import { EMAIL_JOB_ID_HOLDS_MS, enqueueEmail } from '../jobs/email-queue';

/**
 * Each e-mail of an event has its own job id, `<eventId>.<recipient>`: a redelivery (or a retry after
 * one of two was queued) adds none again, and two instances never queue one twice; so the consumer
 * need not look a recent event up first (`idempotentForMs`). They stay in order: one order's e-mails
 * are queued as its events came.
 */
const JOB_PER_EMAIL = { idempotentForMs: EMAIL_JOB_ID_HOLDS_MS };

export function orderEventHandlers(ctx: NotificationContext): Record<string, EventHandler> {
  const lifecycle = async (event: { id: string } & OrderLifecycleEvent) => {
    for (const { recipient, email } of orderEventEmails(ctx.brand, ctx.config.STAFF_EMAIL, event))
      await enqueueEmail(ctx.emails, `${event.id}.${recipient}`, email);
  };
  return {
    ...eventHandler(
      EstimateSubmitted,
      async (event) => {
        await enqueueEmail(
          ctx.emails,
          `${event.id}.customer`,
          estimateReceivedEmail(ctx.brand, event.payload),
        );
        await enqueueEmail(
          ctx.emails,
          `${event.id}.staff`,
          newEstimateStaffEmail(ctx.brand, ctx.config.STAFF_EMAIL, event.payload),
        );
      },
      JOB_PER_EMAIL,
    ),
    // Issue 30: the acceptance's confirmation, the signed agreement attached.
    ...eventHandler(
      AgreementSigned,
      async (event) => {
        for (const { recipient, email } of agreementSignedEmails(
          ctx.brand,
          ctx.config.STAFF_EMAIL,
          event.payload,
        ))
          await enqueueEmail(ctx.emails, `${event.id}.${recipient}`, email);
      },
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      EstimateUpdated,
      (e) => lifecycle({ id: e.id, type: 'EstimateUpdated', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      InvoiceUpdated,
      (e) => lifecycle({ id: e.id, type: 'InvoiceUpdated', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      EstimateStatusChanged,
      (e) => lifecycle({ id: e.id, type: 'EstimateStatusChanged', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      InvoiceStatusChanged,
      (e) => lifecycle({ id: e.id, type: 'InvoiceStatusChanged', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      InvoiceCreated,
      (e) => lifecycle({ id: e.id, type: 'InvoiceCreated', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      EstimateOffered,
      (e) => lifecycle({ id: e.id, type: 'EstimateOffered', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      SignatureVoided,
      (e) => lifecycle({ id: e.id, type: 'SignatureVoided', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      EstimateOfferExpired,
      (e) => lifecycle({ id: e.id, type: 'EstimateOfferExpired', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      EstimateOfferExtended,
      (e) => lifecycle({ id: e.id, type: 'EstimateOfferExtended', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
    ...eventHandler(
      InvoiceCompleted,
      (e) => lifecycle({ id: e.id, type: 'InvoiceCompleted', payload: e.payload }),
      JOB_PER_EMAIL,
    ),
  };
}
