/**
 * The acceptances' crash test's verdict (infra/testbed/src/chaos/acceptances.ts), pure: what the payments
 * emulator's PaymentIntents and the order database must agree on after the kill (issue 30: every
 * authorisation ends captured-later or cancelled, none dangling).
 */
import {
  acceptanceProblems,
  describeProblems,
  type EstimateSeen,
  type IntentSeen,
} from '../src/chaos/acceptances';

const estimate = (id: string, extra: Partial<EstimateSeen> = {}): EstimateSeen => ({
  id,
  accepted: false,
  depositIntentId: null,
  pendingMarks: 0,
  ...extra,
});
const intent = (id: string, estimateId: string, status = 'requires_capture'): IntentSeen => ({
  id,
  estimateId,
  status,
});

describe("the acceptances' crash test's verdict", () => {
  it('settled: each authorisation held by its acceptance or cancelled, every kept customer accepted', () => {
    const intents = [
      intent('pi_a', 'e1'),
      intent('pi_b', 'e2', 'canceled'), // a walk-away's, cancelled by the sweeper
      intent('pi_c', 'e3', 'canceled'), // swept, then a new attempt …
      intent('pi_d', 'e3'), // … held by the acceptance
    ];
    const estimates = [
      estimate('e1', { accepted: true, depositIntentId: 'pi_a' }),
      estimate('e2'),
      estimate('e3', { accepted: true, depositIntentId: 'pi_d' }),
      estimate('e4'), // walked away before anything was asked of the provider
    ];
    expect(acceptanceProblems(intents, estimates, new Set(['e1', 'e3']))).toEqual([]);
  });

  it('an authorisation recorded nowhere is dangling; two live ones for an estimate are one too many', () => {
    const problems = acceptanceProblems(
      [intent('pi_a', 'e1'), intent('pi_b', 'e2'), intent('pi_c', 'e2')],
      [estimate('e1'), estimate('e2', { accepted: true, depositIntentId: 'pi_c' })],
      new Set(),
    );
    expect(problems.map((p) => p.kind)).toEqual(['dangling', 'dangling', 'two live authorisations']);
    expect(describeProblems(problems)).toEqual([
      'dangling ×2 (e.g. pi_a authorised for estimate e1, recorded nowhere)',
      'two live authorisations ×1 (e.g. estimate e2: pi_b, pi_c)',
    ]);
  });

  it("an acceptance whose deposit was cancelled (a sweep racing the customer's retry) fails", () => {
    const problems = acceptanceProblems(
      [intent('pi_a', 'e1', 'canceled')],
      [estimate('e1', { accepted: true, depositIntentId: 'pi_a' })],
      new Set(['e1']),
    );
    expect(describeProblems(problems)).toEqual([
      'accepted, deposit not held ×1 (e.g. estimate e1: pi_a is canceled)',
    ]);
  });

  it('a mark left, a kept customer not accepted, an intent captured or unknown are all named', () => {
    const problems = acceptanceProblems(
      [intent('pi_a', 'e1', 'succeeded')],
      [
        estimate('e1', { accepted: true, depositIntentId: 'pi_a' }),
        estimate('e2', { pendingMarks: 1 }),
        estimate('e3', { accepted: true, depositIntentId: 'pi_z' }),
      ],
      new Set(['e2']),
    );
    expect(problems.map((p) => p.kind)).toEqual([
      'neither held nor cancelled',
      'accepted, deposit not held',
      'pending mark left',
      'answered 201, not accepted',
      'accepted, deposit not held',
    ]);
    expect(problems[4]?.detail).toBe('estimate e3: pi_z is unknown to the provider');
  });
});
