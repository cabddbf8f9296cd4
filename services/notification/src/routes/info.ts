import { CONTACT_HONEYPOT, CONTACT_TEXTS, contactRefusal } from '@decor/contracts';
import { badRequest, HttpError, jobIdFor, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { NotificationContext } from '../context';
import { enquiryEmail } from '../domain/enquiry-email';
import { enqueueEmail } from '../jobs/email-queue';
import { IdempotencyHeaders, NoQuery, QueuedResult } from './schemas';
import { refuseInvalid } from './validation';

/** The cause of an e-mail sent on request: the caller's Idempotency-Key, else this request's id. */
function requestCause(request: FastifyRequest): { cause: string; keyed: boolean } {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key !== ''
    ? { cause: key, keyed: true }
    : { cause: request.id, keyed: false };
}

// Types only, and caps well above the form's limits: the lengths, the e-mail and the date are
// checked by contactRefusal, so a refusal carries the form's own texts.
const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

const ContactBody = Type.Object(
  {
    name: text(1000),
    email: text(1000),
    phone: text(1000),
    eventDate: text(100),
    message: text(20_000),
    [CONTACT_HONEYPOT]: Type.Optional(
      Type.String({ maxLength: 1000, description: 'Hidden from people: left empty, or the post is dropped' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Spec §7 POST /send/info, the contact form: e-mails the message to the staff, reply-to the sender.
 * Limited per client address and per sender (Redis counters shared by every instance); a filled
 * honeypot answers like a success and sends nothing.
 */
export async function infoRoutes(app: ServiceApp, ctx: NotificationContext): Promise<void> {
  app.post(
    '/send/info',
    {
      attachValidation: true,
      preHandler: refuseInvalid({}),
      schema: {
        summary:
          'The contact form: e-mails the message to the staff, reply-to the sender. 429 past the limits per address and per sender',
        querystring: NoQuery,
        headers: IdempotencyHeaders,
        body: ContactBody,
        response: { 200: QueuedResult },
      },
    },
    async (request) => {
      const body = request.body;
      const refusal = contactRefusal(body);
      if (refusal) throw badRequest(refusal);
      if (body[CONTACT_HONEYPOT]?.trim()) {
        // A bot: it must not learn that it was caught, so it gets the usual answer.
        request.log.info({ ip: request.ip }, 'contact form: honeypot filled, nothing sent');
        return { result: { queued: true } };
      }
      const { cause, keyed } = requestCause(request);
      const jobId = `info.${cause}`;
      // A retry of a message already queued is not a new message: it neither counts nor sends.
      if (keyed && (await ctx.emails.getJob(jobIdFor('email', jobId)))) return { result: { queued: true } };
      const email = (body.email ?? '').trim();
      const verdict = await ctx.contactLimits.take(request.ip, email);
      if (!verdict.allowed)
        throw new HttpError(429, CONTACT_TEXTS.tooMany, { 'retry-after': String(verdict.retryAfterSeconds) });
      const enquiry = {
        name: (body.name ?? '').trim(),
        email,
        phone: body.phone?.trim() || undefined,
        eventDate: body.eventDate?.trim() || undefined,
        message: (body.message ?? '').trim(),
      };
      await enqueueEmail(ctx.emails, jobId, enquiryEmail(ctx.brand, ctx.config.STAFF_EMAIL, enquiry));
      return { result: { queued: true } };
    },
  );
}
