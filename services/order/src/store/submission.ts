import { runFlow, serviceUnavailable, stop } from '@decor/kit';
import { Types } from 'mongoose';
import type { OrderContext } from '../context';
import { type EstimateDetails, withCustomerName } from '../domain/details';
import { buildEstimate, type CartSnapshot, submittedOrder } from '../domain/estimate';
import { releaseOrder } from './bookings';
import type { Estimate } from './estimate-model';
import { bookChange, bookingStore, ShortLinesError } from './order-bookings';
import { type CartProjection, cartSnapshot, TRUCKING_FEE_DOC } from './projection-models';
import { insertEstimate } from './writes';

const ACCOUNT_NOT_READY = 'Your account is still being set up; please try again in a moment';

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
export function estimateByScope(ctx: OrderContext, idempotencyScope: string) {
  return ctx.estimates.findOne({ idempotencyScope }, { cartId: 1, docNumber: 1 }).lean();
}

/** The cart to submit as the carts projection has it once the cart events are in, and whether an estimate of it exists. */
export async function cartToSubmit(
  ctx: OrderContext,
  cartId: string,
): Promise<{ cart: CartSnapshot | null; submitted: boolean }> {
  // The client may have changed the cart a moment ago: read it once the cart events are in.
  await ctx.catchUp('carts');
  const [stored, submitted] = await Promise.all([
    ctx.carts.findById(cartId).lean<CartProjection>(),
    ctx.estimates.exists({ cartId }),
  ]);
  return { cart: cartSnapshot(stored), submitted: submitted !== null };
}

/** Why a submission stored nothing: a short line (nothing booked), or a second estimate of the cart or key. */
export type SubmissionRefused = { short: ShortLinesError } | { duplicate: true };

/**
 * A customer's submission, a flow of three steps:
 * 1. "book the lines" (a short line refuses it, nothing booked; undo: release the holds) — booking
 *    needs only the cart's lines and the dates, so a refusal (most requests in a rush for the last
 *    units) is answered before the customer and the fee are read;
 * 2. "read the customer and the trucking fee";
 * 3. "store the estimate with EstimateSubmitted" (a second estimate of the cart or key: refused).
 * A crash after 1 leaves unconfirmed holds: the sweeper removes them, as no estimate was stored.
 */
export async function submitEstimate(
  ctx: OrderContext,
  submission: {
    userId: string;
    cart: CartSnapshot;
    details: EstimateDetails;
    idempotencyScope: string | undefined;
    correlationId: string;
  },
): Promise<{ inserted: Estimate } | SubmissionRefused> {
  const { userId, cart, idempotencyScope, correlationId } = submission;
  const id = new Types.ObjectId();
  const order = submittedOrder(id.toString(), cart, submission.details);
  let customer: Estimate['customer'] | undefined;
  let fee = 0;
  let inserted: Estimate | undefined;
  const refused = await runFlow<OrderContext, SubmissionRefused>(
    'submit an estimate',
    ctx,
    [
      {
        name: 'book the lines',
        run: async () => {
          try {
            return await bookChange(ctx, null, order);
          } catch (err) {
            if (err instanceof ShortLinesError) return stop({ short: err });
            throw err;
          }
        },
        undo: () => releaseOrder(bookingStore(ctx), order.id),
      },
      {
        name: 'read the customer and the trucking fee',
        run: async () => {
          [customer, fee] = await Promise.all([customerOf(ctx, userId), truckingCents(ctx)]);
        },
      },
      {
        name: 'store the estimate with EstimateSubmitted',
        run: async () => {
          const known = customer as Estimate['customer'];
          const details = withCustomerName(submission.details, known.ownCompany ?? known.displayName);
          const draft = buildEstimate(cart, details, fee);
          const outcome = await insertEstimate(ctx, {
            draft,
            customer: known,
            idempotencyScope,
            correlationId,
            id,
          });
          if ('duplicateOf' in outcome) return stop({ duplicate: true });
          inserted = outcome.inserted;
        },
      },
    ],
    ctx.log,
  );
  return refused ?? { inserted: inserted as Estimate };
}
