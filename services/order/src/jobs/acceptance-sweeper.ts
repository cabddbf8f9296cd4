import type { OrderContext } from '../context';
import { ProviderDownError } from '../payments/provider';
import { authorisationRequest } from '../store/accept';
import { claimForSweep, danglingAuthorisations, dropPending } from '../store/acceptance';

/**
 * The sweeper of deposit authorisations that were never recorded (issue 30): an acceptance marks its
 * authorisation pending before asking the provider and removes the mark in the write that records
 * it, so a mark older than ACCEPTANCE_SWEEP_AFTER_MS is a process that died (or a provider that went
 * silent) in between. The sweep first takes the mark (flags it), so a customer's retry still under
 * way can no longer record that authorisation; then sends the same create again under the same
 * idempotency key — the provider answers the authorisation it made (or makes it now) — cancels it
 * unless it is the one recorded, and drops the mark, moving the estimate to its next attempt (a new
 * key: the provider's replay of this one would still say 'held'). Every instance sweeps: the flag,
 * the replay, the cancel and the drop are all idempotent, so two sweeps at once agree.
 */
export async function sweepAuthorisations(ctx: OrderContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ctx.config.ACCEPTANCE_SWEEP_AFTER_MS);
  const dangling = await danglingAuthorisations(ctx, cutoff);
  let cancelled = 0;
  for (const { id, pending, acceptedIntent } of dangling) {
    try {
      // Recorded (or dropped) since it was read: nothing left to sweep.
      if (!(await claimForSweep(ctx, id, pending.key))) continue;
      const outcome = await ctx.payments.authorise(authorisationRequest(id, pending));
      const intent = 'authorised' in outcome ? outcome.authorised : null;
      const recorded = intent !== null && intent.id === acceptedIntent;
      if (intent && !recorded && intent.status === 'requires_capture') {
        await ctx.payments.cancel(intent.id);
        cancelled += 1;
        ctx.log.warn(
          { estimateId: id, intentId: intent.id },
          'a deposit authorised but never recorded was cancelled',
        );
      }
      await dropPending(ctx, id, pending.key, intent !== null && !recorded);
    } catch (err) {
      // The provider is still down: the mark stays and the next sweep tries again.
      if (!(err instanceof ProviderDownError)) throw err;
      ctx.log.warn({ err, estimateId: id }, 'authorisation sweep: provider down, retried next sweep');
    }
  }
  return cancelled;
}

/** Sweeps every quarter of the age until stopped; a failed sweep is logged and the next one tries again. */
export function startAuthorisationSweeper(ctx: OrderContext): { stop(): void } {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      sweepAuthorisations(ctx)
        .catch((err) => ctx.log.warn({ err }, 'authorisation sweep failed; the next one retries'))
        .finally(() => {
          running = false;
        });
    },
    Math.max(ctx.config.ACCEPTANCE_SWEEP_AFTER_MS / 4, 500),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
