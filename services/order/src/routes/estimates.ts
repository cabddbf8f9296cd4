import { ShortLinesRefusal } from '@decor/contracts';
import { badRequest, conflict, forbidden, HttpError, hasRole, notFound, type ServiceApp } from '@decor/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OrderContext } from '../context';
import { parseDetails } from '../domain/details';
import { cartRefusal, MESSAGES } from '../domain/estimate';
import type { Estimate } from '../store/estimate-model';
import { shortLinesAnswer } from '../store/order-bookings';
import { estimateByScope as byScope, cartToSubmit, submitEstimate } from '../store/submission';
import { IdempotencyHeaders, SubmitEstimateBody, SubmittedResult } from './schemas';

async function onlyCustomers(request: FastifyRequest): Promise<void> {
  if (!hasRole(request.user, 'customer')) throw forbidden(MESSAGES.onlyCustomers);
}

/** A repeated request with the same Idempotency-Key: the estimate it made, 200 instead of 201. */
function replay(
  reply: FastifyReply,
  estimate: Pick<Estimate, '_id' | 'docNumber' | 'cartId'>,
  cartId: string,
) {
  if (estimate.cartId !== cartId) throw conflict(MESSAGES.keyReused);
  return reply.code(200).send({ result: { id: estimate._id.toString(), DocNumber: estimate.docNumber } });
}

export async function estimateRoutes(app: ServiceApp, ctx: OrderContext): Promise<void> {
  app.post(
    '/estimate',
    {
      onRequest: [app.authenticate, onlyCustomers],
      schema: {
        summary: "Submit the customer's active cart as an order request (an estimate in status Pending)",
        description:
          'Publishes EstimateSubmitted. With an Idempotency-Key header, a repeated request answers the same ' +
          'estimate (200); without one, a cart can be submitted once (then 409).',
        security: [{ session: [] }],
        headers: IdempotencyHeaders,
        body: SubmitEstimateBody,
        response: { 200: SubmittedResult, 201: SubmittedResult, 409: ShortLinesRefusal },
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      const { CartId: cartId, status: _status, ...input } = request.body;
      const parsed = parseDetails(
        Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v ?? undefined])),
      );
      if ('problem' in parsed) throw badRequest(parsed.problem);

      const key = request.headers['idempotency-key'];
      const idempotencyScope = key === undefined ? undefined : `${userId}:${key}`;
      if (idempotencyScope) {
        const earlier = await byScope(ctx, idempotencyScope);
        if (earlier) return replay(reply, earlier, cartId);
      }

      const { cart, submitted } = await cartToSubmit(ctx, cartId);
      const refusal = cartRefusal(cart, userId, submitted);
      if (refusal) {
        // The same key sent twice at once: the other request may have stored the estimate meanwhile.
        const winner = idempotencyScope ? await byScope(ctx, idempotencyScope) : null;
        if (winner) return replay(reply, winner, cartId);
        throw new HttpError(refusal.status, refusal.message);
      }
      if (!cart) throw notFound(MESSAGES.cartNotFound); // (cartRefusal already said so)

      const outcome = await submitEstimate(ctx, {
        userId,
        cart,
        details: parsed.details,
        idempotencyScope,
        correlationId: request.id,
      });
      if ('short' in outcome) return reply.code(409).send(shortLinesAnswer(outcome.short));
      if ('duplicate' in outcome) {
        // Lost a race: with the same key, the winner is this request's estimate; else a double submission.
        const winner = idempotencyScope ? await byScope(ctx, idempotencyScope) : null;
        if (winner) return replay(reply, winner, cartId);
        throw conflict(MESSAGES.alreadySubmitted);
      }
      // The cart service checks the cart out on this event and the client reads its carts next.
      const { _id, docNumber } = outcome.inserted;
      await ctx.eventsPublished(_id);
      return reply.code(201).send({ result: { id: _id.toString(), DocNumber: docNumber } });
    },
  );
}
