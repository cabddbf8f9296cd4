import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  hasRole,
  notFound,
  type ServiceApp,
  serviceUnavailable,
} from '@decor/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Types } from 'mongoose';
import type { OrderContext } from '../context';
import { parseDetails, withCustomerName } from '../domain/details';
import { buildEstimate, cartRefusal, MESSAGES, submittedOrder } from '../domain/estimate';
import { releaseOrder } from '../store/bookings';
import type { Estimate } from '../store/estimate-model';
import { bookChange, bookingStore, ShortLinesError, shortLinesAnswer } from '../store/order-bookings';
import { type CartProjection, cartSnapshot, TRUCKING_FEE_DOC } from '../store/projection-models';
import { insertEstimate } from '../store/writes';
import { IdempotencyHeaders, ShortLinesAnswer, SubmitEstimateBody, SubmittedResult } from './schemas';

const ACCOUNT_NOT_READY = 'Your account is still being set up; please try again in a moment';

async function onlyCustomers(request: FastifyRequest): Promise<void> {
  if (!hasRole(request.user, 'customer')) throw forbidden(MESSAGES.onlyCustomers);
}

/** The customer as the users projection knows them; waits for the user topic once if not yet. */
async function customerOf(ctx: OrderContext, userId: string): Promise<Estimate['customer']> {
  let user = await ctx.users.findById(userId).lean();
  if (!user) {
    await ctx.catchUp('users');
    user = await ctx.users.findById(userId).lean();
  }
  if (!user) throw serviceUnavailable(ACCOUNT_NOT_READY);
  return { email: user.email, displayName: user.displayName, ownCompany: user.ownCompany, qboId: null };
}

async function truckingCents(ctx: OrderContext): Promise<number> {
  const fee = await ctx.truckingFee.findById(TRUCKING_FEE_DOC).lean();
  return fee?.valueCents ?? Math.round(ctx.config.TRUCKING_FEE_DEFAULT * 100);
}

/** The estimate an earlier request with this `<userId>:<Idempotency-Key>` made, if any. */
function byScope(ctx: OrderContext, idempotencyScope: string) {
  return ctx.estimates.findOne({ idempotencyScope }, { cartId: 1, docNumber: 1 }).lean();
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
        response: { 200: SubmittedResult, 201: SubmittedResult, 409: ShortLinesAnswer },
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

      // The client may have changed the cart a moment ago: read it once the cart events are in.
      await ctx.catchUp('carts');
      const [stored, submitted] = await Promise.all([
        ctx.carts.findById(cartId).lean<CartProjection>(),
        ctx.estimates.exists({ cartId }),
      ]);
      const cart = cartSnapshot(stored);
      const refusal = cartRefusal(cart, userId, submitted !== null);
      if (refusal) {
        // The same key sent twice at once: the other request may have stored the estimate meanwhile.
        const winner = idempotencyScope ? await byScope(ctx, idempotencyScope) : null;
        if (winner) return replay(reply, winner, cartId);
        throw new HttpError(refusal.status, refusal.message);
      }
      if (!cart) throw notFound(MESSAGES.cartNotFound); // (cartRefusal already said so)

      // Step 1, "book the lines" (a short line: 409, nothing booked); step 2, "store the estimate".
      // Undo of step 1 when step 2 stores nothing: release the holds (a crash: the sweeper does).
      // Booking needs only the cart's lines and the dates, so a refusal (most requests in a rush for
      // the last units) is answered before the customer and the fee are read.
      const id = new Types.ObjectId();
      const order = submittedOrder(id.toString(), cart, parsed.details);
      try {
        await bookChange(ctx, null, order);
      } catch (err) {
        if (err instanceof ShortLinesError) return reply.code(409).send(shortLinesAnswer(err));
        throw err;
      }
      const undo = async (err: unknown): Promise<never> => {
        await releaseOrder(bookingStore(ctx), order.id).catch(() => {});
        throw err;
      };
      const [customer, fee] = await Promise.all([customerOf(ctx, userId), truckingCents(ctx)]).catch(undo);
      const details = withCustomerName(parsed.details, customer.ownCompany ?? customer.displayName);
      const draft = buildEstimate(cart, details, fee);
      const outcome = await insertEstimate(ctx, {
        draft,
        customer,
        idempotencyScope,
        correlationId: request.id,
        id,
      }).catch(undo);
      if ('duplicateOf' in outcome) {
        await releaseOrder(bookingStore(ctx), order.id); // undo of step 1
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
