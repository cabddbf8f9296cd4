import {
  ACCEPTANCE_MESSAGES,
  type AcceptanceRequest,
  type AcceptanceView,
  availableFor,
  cardRequired,
  type ShortLine,
} from '@decor/contracts';
import { runFlow, stop } from '@decor/kit';
import type { OrderContext } from '../context';
import {
  type AcceptanceRecord,
  acceptanceView,
  acceptedAsAsked,
  acceptRefusal,
  authorisationKey,
  CURRENCY,
  canonicalContent,
  type Deposit,
  estimateVersionOf,
  heldDepositCents,
  offerFor,
  type PendingAuthorisation,
  signatureSha256,
} from '../domain/acceptance';
import { bookingIdOf, othersHolds } from '../domain/bookings';
import type { OrderRecord } from '../domain/view';
import { type AuthoriseRequest, type Intent, ProviderDownError } from '../payments/provider';
import {
  addPending,
  dropPending,
  type EstimateWithAcceptance,
  isAccepted,
  offeredEvent,
  readEstimateWithAcceptance,
  recordAcceptance,
  recordOffer,
} from './acceptance';
import { agreementOf, settingsInForce } from './acceptance-settings';
import { bookingStore, requestsFor } from './order-bookings';
import { CHANGED_MEANWHILE, type WrittenAlongside } from './orders';

/** Every answer of `POST /api/estimate/:id/acceptance` (issue 30). */
export type AcceptAnswer =
  | { status: 201; view: AcceptanceView }
  | { status: 400 | 402 | 403 | 404 | 503; message: string }
  | { status: 409; message: string; estimateVersion?: string; shortLines?: ShortLine[] };

export interface AcceptInput {
  estimateId: string;
  userId: string;
  staff: boolean;
  body: AcceptanceRequest;
  /** `<userId>:<Idempotency-Key>` */
  idempotencyScope: string;
  ip: string;
  userAgent: string;
  correlationId: string;
}

/**
 * An Open estimate sent before issue 30 (a send writes its offer with it: offerWithSend) gets its
 * offer at its first read, under the settings in force then: the one honest date we have for it.
 */
export async function withOffer(
  ctx: OrderContext,
  loaded: EstimateWithAcceptance,
): Promise<EstimateWithAcceptance> {
  if (loaded.facts.offer || loaded.order.status !== 'Open' || loaded.facts.acceptance) return loaded;
  const { settings, agreement } = await settingsInForce(ctx.acceptanceSettings);
  await recordOffer(ctx, loaded.order.id, offerFor(loaded.order, settings, agreement, new Date()));
  return (await readEstimateWithAcceptance(ctx, loaded.order.id)) ?? loaded;
}

/**
 * An estimate just sent (QuickBooks has it: Open, its modification approved) is offered for
 * acceptance under the settings in force now: a new send renews the offer (a new version applies),
 * unless it is accepted. Written with the send's own change (`changeOrder`'s `alongside`): a crash
 * between two writes once left a sent estimate without its offer, and its customer without the
 * e-mail (a redelivered send decides "nothing to change").
 */
export function offerWithSend(ctx: OrderContext): WrittenAlongside {
  return async (order, set) => {
    if (order.orderType !== 'estimate' || order.status !== 'Open' || order.hasBeenModified) return undefined;
    if (!('status' in set || 'hasBeenModified' in set)) return undefined; // not a send: a bookkeeping echo
    if (await isAccepted(ctx, order.id)) return undefined;
    const { settings, agreement } = await settingsInForce(ctx.acceptanceSettings);
    const offer = offerFor(order, settings, agreement, new Date());
    return { set: { offer }, events: [offeredEvent(order, offer, 'status' in set)] };
  };
}

/** The acceptance view of an estimate as stored (the GET, and every 201). */
export async function viewOf(ctx: OrderContext, loaded: EstimateWithAcceptance): Promise<AcceptanceView> {
  const { offer, acceptance, depositOnVoid } = loaded.facts;
  // Staff's refund-or-keep choice is stored before the void it goes with: shown once it happened.
  const voided =
    !!depositOnVoid &&
    (await ctx.invoices.exists({ estimateId: loaded.order.id, status: 'Voided' })) !== null;
  const agreement = acceptance
    ? await agreementOf(ctx.acceptanceSettings, acceptance.agreementVersion, acceptance.agreementSha256)
    : offer
      ? await agreementOf(ctx.acceptanceSettings, offer.agreementVersion, offer.agreementSha256)
      : (await settingsInForce(ctx.acceptanceSettings)).agreement;
  return acceptanceView(
    loaded.order,
    { ...loaded.facts, depositOnVoid: voided ? depositOnVoid : null },
    { version: agreement.version, text: agreement.text },
    {
      now: new Date(),
      ...(ctx.config.PAYMENTS_FRAME_URL ? { paymentFrameUrl: ctx.config.PAYMENTS_FRAME_URL } : {}),
    },
  );
}

/**
 * The lines that no longer fit their dates: the order's own holds aside, fewer units are free than
 * it asks (a sub-rental staff booked beyond stock, or stock the catalogue took away since).
 */
async function shortLinesOf(ctx: OrderContext, order: OrderRecord): Promise<ShortLine[]> {
  const requests = await requestsFor(ctx, { ...order, orderType: 'estimate', estimateId: null });
  if (requests.length === 0) return [];
  const store = bookingStore(ctx);
  const ledgers = await ctx.ledgers.find({ _id: { $in: requests.map((r) => r.sku) } }, { holds: 1 }).lean();
  const holdsBySku = new Map(ledgers.map((l) => [l._id, l.holds]));
  const id = bookingIdOf({ id: order.id, estimateId: null });
  const short: ShortLine[] = [];
  for (const request of requests) {
    const owned = request.owned ?? (await store.owned(request.sku));
    const others = othersHolds(holdsBySku.get(request.sku) ?? [], id);
    const { available, day } = availableFor(owned, others, request.window, request.focus);
    if (available < request.qty)
      short.push({ productId: request.sku, name: request.name, requested: request.qty, available, day });
  }
  return short;
}

/**
 * Whether the acceptance a request lost to is its answer: recorded under its key; or, when the request
 * holds an authorisation, holding that one (racing posts with one card share it); or, when it holds
 * none (it lost before asking the provider), the same customer's for the same version — another tab.
 */
function answeredBy(read: EstimateWithAcceptance, input: AcceptInput, intentId: string | null): boolean {
  const { acceptance, deposit } = read.facts;
  if (!acceptance) return false;
  if (acceptance.idempotencyScope === input.idempotencyScope) return true;
  if (intentId !== null) return deposit?.intentId === intentId;
  return acceptedAsAsked(read.order, read.facts, input.userId, input.body.estimateVersion, new Date());
}

/**
 * A request that lost a race (its write found the estimate changed): when the acceptance now on it
 * is this request's own (same key, or the authorisation this request shares with the winner), the
 * first answer; otherwise why it cannot be accepted.
 */
async function answerAfterLoss(
  ctx: OrderContext,
  input: AcceptInput,
  intentId: string | null,
): Promise<AcceptAnswer> {
  const fresh = await readEstimateWithAcceptance(ctx, input.estimateId);
  if (!fresh) return { status: 404, message: 'Estimate not found' };
  if (answeredBy(fresh, input, intentId)) return { status: 201, view: await viewOf(ctx, fresh) };
  return acceptRefusal(fresh.order, fresh.facts, input.body.estimateVersion, new Date()) ?? AGAIN;
}

/**
 * The provider call of one pending authorisation: the sweeper sends exactly this again (the
 * provider answers an idempotent replay only for the same parameters) to learn what it made.
 */
export const authorisationRequest = (
  estimateId: string,
  pending: PendingAuthorisation,
): AuthoriseRequest => ({
  amountCents: pending.amountCents,
  currency: CURRENCY,
  paymentMethod: pending.paymentMethod,
  idempotencyKey: pending.key,
  metadata: { estimateId, acceptanceKey: pending.key },
});

const pendingOf = (s: FlowState): PendingAuthorisation => ({
  key: s.key,
  at: new Date(),
  paymentMethod: s.input.body.paymentMethod ?? '',
  amountCents: s.amountCents,
});

interface FlowState {
  input: AcceptInput;
  loaded: EstimateWithAcceptance;
  amountCents: number;
  key: string;
  intent: Intent | null;
  /** The provider may have authorised (it timed out): the mark stays for the sweeper. */
  keepMark: boolean;
  answer: AcceptAnswer | null;
}

/**
 * The acceptance: pure checks first (who, state, version, stock), then the flow — (a) mark the
 * authorisation pending on the estimate (the sweeper cancels it if the process dies before (c));
 * (b) authorise the deposit at the provider under a key derived from the estimate, its version and
 * the card, so racing posts share ONE authorisation; (c) the one guarded write of the record, the
 * deposit, the confirmed booking and EstimateAccepted. A stop undoes (b) by cancelling and (a) by
 * dropping the mark.
 */
export async function acceptEstimate(ctx: OrderContext, input: AcceptInput): Promise<AcceptAnswer> {
  const first = await acceptOnce(ctx, input);
  if (first !== AGAIN) return first;
  const second = await acceptOnce(ctx, input);
  return second === AGAIN ? { status: 409, message: CHANGED_MEANWHILE } : second;
}

/**
 * acceptOnce's answer when the estimate moved under its attempt without a reason to refuse: the
 * sweeper took (is cancelling) the authorisation it would record — the provider's replay still calls
 * it held — or a write changed nothing the customer was shown. Once more from a fresh read (the next
 * attempt's key); a second time in a row, the customer is asked to try again.
 */
const AGAIN = { status: 409, message: CHANGED_MEANWHILE } as const satisfies AcceptAnswer;

async function acceptOnce(ctx: OrderContext, input: AcceptInput): Promise<AcceptAnswer> {
  const read = await readEstimateWithAcceptance(ctx, input.estimateId);
  if (!read || (!input.staff && read.order.userId !== input.userId))
    return { status: 404, message: 'Estimate not found' };
  if (read.order.userId !== input.userId) return { status: 403, message: ACCEPTANCE_MESSAGES.ownerOnly };
  const loaded = await withOffer(ctx, read);
  const { order, facts } = loaded;
  if (facts.acceptance?.idempotencyScope === input.idempotencyScope)
    return { status: 201, view: await viewOf(ctx, loaded) };
  const refusal = acceptRefusal(order, facts, input.body.estimateVersion, new Date());
  if (refusal) return refusal;
  const short = await shortLinesOf(ctx, order);
  const first = short[0];
  if (first) {
    const { shortLineText } = await import('@decor/contracts');
    return { status: 409, message: shortLineText(first.available, first.name, first.day), shortLines: short };
  }

  // Signing again after a change: a deposit still authorised is kept; only a higher one is asked again.
  const held = facts.deposit?.state === 'authorised' && facts.deposit.intentId ? facts.deposit : null;
  const amountCents = facts.offer?.depositCents ?? 0;
  const due = cardRequired(amountCents, heldDepositCents(facts.deposit));
  const { paymentMethod } = input.body;
  if (due && !paymentMethod) return { status: 400, message: ACCEPTANCE_MESSAGES.cardRequired };
  const state: FlowState = {
    input,
    loaded,
    amountCents,
    key: authorisationKey(order.id, input.body.estimateVersion, paymentMethod ?? 'none', loaded.attempt),
    intent: null,
    keepMark: false,
    answer: null,
  };
  const stopped = await runFlow<FlowState, AcceptAnswer>(
    'accept an estimate',
    state,
    [
      due && {
        name: 'mark the deposit authorisation pending',
        run: async (s) => {
          const outcome = await addPending(ctx, loaded, pendingOf(s));
          if (outcome === 'changed') return stop(await answerAfterLoss(ctx, input, null));
          if (outcome === 'stale') return stop(AGAIN);
          return outcome;
        },
        undo: async (s: FlowState, outcome: never) => {
          if ((outcome as 'added' | 'present') === 'added' && !s.keepMark)
            await dropPending(ctx, order.id, s.key, false);
        },
      },
      due && {
        name: 'authorise the deposit',
        run: async (s) => {
          try {
            const outcome = await ctx.payments.authorise(authorisationRequest(order.id, pendingOf(s)));
            if ('declined' in outcome) return stop({ status: 402, message: outcome.declined });
            s.intent = outcome.authorised;
            if (outcome.authorised.status !== 'requires_capture') {
              // This key's authorisation was cancelled earlier (a sweep): the next attempt gets a new key.
              await dropPending(ctx, order.id, s.key, true);
              return stop({ status: 503, message: ACCEPTANCE_MESSAGES.providerDown });
            }
            return outcome.authorised;
          } catch (err) {
            if (!(err instanceof ProviderDownError)) throw err;
            s.keepMark = err.outcomeUnknown;
            ctx.log.warn({ err, estimateId: order.id }, 'payment provider down: acceptance refused (503)');
            return stop({ status: 503, message: ACCEPTANCE_MESSAGES.providerDown });
          }
        },
        undo: async (s: FlowState) => {
          if (!s.intent) return;
          await ctx.payments.cancel(s.intent.id);
          await dropPending(ctx, order.id, s.key, true);
        },
      },
      {
        name: 'record the acceptance, its deposit and the confirmed booking',
        run: async (s) => {
          const agreement = await agreementOf(
            ctx.acceptanceSettings,
            facts.offer?.agreementVersion ?? 1,
            facts.offer?.agreementSha256 ?? '',
          );
          const content = canonicalContent(order);
          const record: AcceptanceRecord = {
            userId: input.userId,
            signerName: input.body.signerName.trim(),
            signatureSha256: signatureSha256(input.body.signature),
            estimateVersion: estimateVersionOf(order),
            content,
            agreementVersion: agreement.version,
            agreementSha256: agreement.sha256,
            ip: input.ip,
            userAgent: input.userAgent,
            at: new Date(),
            idempotencyScope: input.idempotencyScope,
            signature: input.body.signature,
          };
          const deposit: Deposit =
            s.intent || !held
              ? { amountCents: s.amountCents, intentId: s.intent?.id ?? null, state: 'authorised' }
              : held;
          const actor = { role: 'customer' as const, userId: input.userId };
          const written = await recordAcceptance(
            ctx,
            loaded,
            record,
            deposit,
            due ? s.key : null,
            actor,
            input.correlationId,
          );
          if (written) {
            // A higher deposit replaced the one held: let the old one go (the sweep of webhooks agrees).
            if (held && s.intent)
              await ctx.payments.cancel(held.intentId as string).catch((err) => {
                ctx.log.warn(
                  { err, intentId: held.intentId },
                  'the replaced deposit could not be released yet',
                );
              });
            s.answer = { status: 201, view: await viewOf(ctx, written) };
            return s.answer;
          }
          const lost = await answerAfterLoss(ctx, input, s.intent?.id ?? null);
          if (lost.status === 201) {
            s.answer = lost; // the winner holds this very authorisation: nothing to undo
            return lost;
          }
          return stop(lost);
        },
      },
    ],
    ctx.log,
  );
  return stopped ?? state.answer ?? { status: 409, message: CHANGED_MEANWHILE };
}
