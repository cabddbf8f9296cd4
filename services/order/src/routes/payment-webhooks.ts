import type { DepositState } from '@decor/contracts';
import { badRequest, type ServiceApp } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { OrderContext } from '../context';
import { ForgedWebhookError } from '../payments/provider';
import { rememberPaymentEvent, seenPaymentEvent, setDepositState } from '../store/acceptance';

/** The provider's events that move a deposit, and where to. */
const DEPOSIT_STATE_OF: Record<string, DepositState> = {
  'payment_intent.canceled': 'released',
  'payment_intent.succeeded': 'captured',
  'charge.refunded': 'refunded',
};

export const FORGED = 'Webhook signature verification failed';

/**
 * `POST /api/payments/webhook` (issue 30): the provider tells us a deposit moved. Public (the
 * provider has no session); its `Stripe-Signature` over the raw body is the proof, so the body is
 * read as bytes here (and passed through the gateway untouched). A forged or stale one: 400; an
 * event already handled (a replay, a retry): 200 and nothing done.
 */
export async function paymentWebhookRoutes(app: ServiceApp, ctx: OrderContext): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/payments/webhook',
    {
      schema: {
        summary: "The payment provider's webhooks (signed): deposits released, captured or refunded",
        description:
          'Verified with the endpoint secret (Stripe-Signature); a forged or stale signature answers 400, an ' +
          'event already handled 200 with nothing done.',
        headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String()) }),
        response: { 200: Type.Object({ received: Type.Boolean(), handled: Type.Boolean() }) },
      },
    },
    async (request) => {
      const raw = request.body;
      const signature = request.headers['stripe-signature'];
      if (!Buffer.isBuffer(raw) || !signature) throw badRequest(FORGED);
      let event: ReturnType<typeof ctx.payments.verifyWebhook>;
      try {
        event = ctx.payments.verifyWebhook(raw, signature);
      } catch (err) {
        if (err instanceof ForgedWebhookError) throw badRequest(FORGED);
        throw err;
      }
      if (await seenPaymentEvent(ctx, event.id)) return { received: true, handled: false };
      const state = DEPOSIT_STATE_OF[event.type];
      const handled =
        state && event.intentId ? await setDepositState(ctx, event.intentId, state, request.id) : false;
      await rememberPaymentEvent(ctx, event.id, event.type);
      if (handled) await ctx.eventsPublished();
      return { received: true, handled };
    },
  );
}
