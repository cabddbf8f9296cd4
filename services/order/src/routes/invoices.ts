import { InvoiceView, refusalMessage, ShortLinesRefusal } from '@decor/contracts';
import { conflict, notFound, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { OrderContext } from '../context';
import { offerLapsed } from '../domain/bookings';
import { decide } from '../domain/decide';
import type { OrderRecord } from '../domain/view';
import { bookLapsedAgain } from '../store/offer-expiry';
import { ShortLinesError, shortLinesAnswer } from '../store/order-bookings';
import { closeInvoicedEstimate, insertInvoice, invoiceByScope, readOrder } from '../store/orders';
import { actorOf, NOT_FOUND, refusalError, sendOrder, visibleTo } from './order-answers';
import { CreateInvoiceBody, IdempotencyHeaders } from './schemas';

export const KEY_REUSED = 'This Idempotency-Key was already used for another invoice request';

export async function invoiceRoutes(app: ServiceApp, ctx: OrderContext): Promise<void> {
  app.post(
    '/invoice',
    {
      onRequest: app.authenticate,
      schema: {
        summary:
          'Request an invoice from an Open, unmodified estimate without one (customers: their own; staff)',
        description:
          "The invoice starts Pending with the estimate's DocNumber, lines and totals; the estimate becomes " +
          'Closed with hasInvoice. Publishes InvoiceCreated, then EstimateStatusChanged. With an Idempotency-Key ' +
          'a repeated request answers the same invoice (200); one invoice per estimate whatever the race (409). ' +
          'An estimate whose acceptance offer lapsed (its units released) books them again first: 409 with ' +
          'every short line when they no longer fit, nothing changed.',
        security: [{ session: [] }],
        headers: IdempotencyHeaders,
        body: CreateInvoiceBody,
        response: {
          200: Type.Object({ result: InvoiceView }),
          201: Type.Object({ result: InvoiceView }),
          409: ShortLinesRefusal,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request.user);
      const estimateId = request.body.EstimateId;
      const key = request.headers['idempotency-key'];
      const idempotencyScope = key === undefined ? undefined : `${request.user.id}:${key}`;
      const replay = (invoice: OrderRecord, res: FastifyReply) => {
        if (invoice.estimateId !== estimateId) throw conflict(KEY_REUSED);
        return sendOrder(res.code(200), invoice, actor, ctx.today());
      };
      /** The same key sent twice at once: the other request's invoice, once it exists. */
      const winner = async () => (idempotencyScope ? invoiceByScope(ctx, idempotencyScope) : null);

      const earlier = await winner();
      if (earlier) return replay(earlier, reply);

      const estimate = await readOrder(ctx, 'estimate', estimateId);
      if (!estimate || !visibleTo(request.user)(estimate)) throw notFound(NOT_FOUND.estimate);
      const decision = decide(estimate, { action: 'requestInvoice' }, actor, ctx.today());
      if (!decision.ok) {
        const won = await winner();
        if (won) return replay(won, reply);
        throw refusalError(decision.code, estimate.status);
      }
      // Issue 30: an estimate whose offer lapsed gave its units back; its invoice (which keeps its
      // booking whatever is free) may not take them from whoever booked them since. Booked again
      // first against what is free: 409 with every short line, nothing changed, when they no longer fit.
      if (offerLapsed(estimate)) {
        try {
          await bookLapsedAgain(ctx, estimate);
        } catch (err) {
          if (err instanceof ShortLinesError) return reply.code(409).send(shortLinesAnswer(err));
          throw err;
        }
      }
      const outcome = await insertInvoice(ctx, estimate, actor, idempotencyScope, request.id);
      if ('duplicate' in outcome) {
        const won = await winner();
        if (won) return replay(won, reply);
        throw conflict(refusalMessage('hasInvoice', estimate.status));
      }
      // The estimate's half (Closed, hasInvoice): done now, and repaired by our InvoiceCreated
      // consumer if this fails or the process dies here (store/orders.ts, closeInvoicedEstimate).
      try {
        await closeInvoicedEstimate(ctx, estimate.id, actor, request.id);
      } catch (err) {
        request.log.warn(
          { err, estimateId: estimate.id },
          'estimate not closed yet; the InvoiceCreated consumer will',
        );
      }
      await ctx.eventsPublished();
      return sendOrder(reply.code(201), outcome.inserted, actor, ctx.today());
    },
  );
}
