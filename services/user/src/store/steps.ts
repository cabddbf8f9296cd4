import type { Refused } from '../domain/refusals';

/**
 * A write that spans documents, as named steps each with its compensation (the order service's
 * bookings work the same way). A step answers a refusal to stop: the steps done so far are undone,
 * last first, and the refusal is the answer. A step that fails undoes them too, then fails; a
 * process that dies between steps leaves what each step's own guard copes with (see the callers).
 */
export interface Step {
  name: string;
  run(): Promise<Refused | undefined>;
  /** Puts back what `run` did; absent for a step that writes nothing or comes last. */
  undo?(): Promise<void>;
}

interface StepLog {
  error(fields: Record<string, unknown>, message: string): void;
}

export async function runSteps(steps: readonly Step[], log: StepLog): Promise<Refused | undefined> {
  const done: Step[] = [];
  const undoAll = async () => {
    for (const step of done.reverse()) {
      try {
        await step.undo?.();
      } catch (err) {
        log.error({ err, step: step.name }, 'undo of a step failed');
        throw err;
      }
    }
  };
  for (const step of steps) {
    let refused: Refused | undefined;
    try {
      refused = await step.run();
    } catch (err) {
      log.error({ err, step: step.name }, 'step failed: undoing the steps before it');
      await undoAll().catch(() => {});
      throw err;
    }
    if (refused) {
      await undoAll();
      return refused;
    }
    done.push(step);
  }
  return undefined;
}
