/**
 * The one way a service writes a change that spans documents (or a document and a bucket): named
 * steps, each with its compensation, run in order; when one fails or stops the flow, the steps done
 * so far are undone, last first (the saga shape of medusa's workflows). A process that dies between
 * steps leaves what each step's own guard copes with (a mark that goes stale, a sweeper): the caller
 * says which.
 */
import { inSpan, SpanKind } from './tracing';

/** What a flow logs to: pino's logger, or a test's recorder. */
export interface FlowLog {
  error(fields: Record<string, unknown>, message: string): void;
}

/** A step's answer that ends the flow early with `value` (a refusal, say): the steps done are undone. */
export class FlowStop<S> {
  constructor(readonly value: S) {}
}

/** Ends the flow with `value` as its answer, after undoing the steps done (this one wrote nothing). */
export const stop = <S>(value: S): FlowStop<S> => new FlowStop(value);

export interface FlowStep<C, S = never> {
  /** What the step does, in product words: it names the step in logs, errors' log lines and spans. */
  readonly name: string;
  /** Does the step's write; its answer is handed to `undo`, or `stop(value)` ends the flow. */
  run(ctx: C): Promise<unknown | FlowStop<S>>;
  /** Puts back what `run` did (given what it answered); absent for a step that writes nothing or comes last. */
  undo?(ctx: C, result: never): Promise<void>;
}

/** A step whose `undo` is typed by what its `run` answers (a stop is never handed to `undo`). */
export function flowStep<C, R, S = never>(
  name: string,
  run: (ctx: C) => Promise<R | FlowStop<S>>,
  undo?: (ctx: C, result: R) => Promise<void>,
): FlowStep<C, S> {
  return { name, run, undo: undo as FlowStep<C, S>['undo'] };
}

/**
 * Runs `steps` in order on `ctx` (the flow's input and what its steps found; a step left `false`
 * is skipped, for steps that apply only sometimes). Answers undefined when every step ran, or the
 * value of the step that stopped it once the steps before it are undone. A step that throws: the
 * steps done are undone, then its error is thrown. An undo that fails is logged with the flow's and
 * the step's names and the others are still undone; the step's error is the one thrown (after a
 * stop, the first undo's error is, as the stop's answer would be untrue).
 */
export async function runFlow<C, S = never>(
  name: string,
  ctx: C,
  steps: readonly (FlowStep<C, S> | false)[],
  log: FlowLog,
): Promise<S | undefined> {
  const done: { step: FlowStep<C, S>; result: unknown }[] = [];
  const undoAll = async (cause: unknown): Promise<unknown> => {
    let firstFailure: unknown;
    for (const { step, result } of done.reverse()) {
      const undo = step.undo?.bind(step);
      if (!undo) continue;
      try {
        await inStepSpan(name, `undo: ${step.name}`, () => undo(ctx, result as never));
      } catch (err) {
        log.error({ err, cause, flow: name, step: step.name }, `${name}: undo of "${step.name}" failed`);
        firstFailure ??= err;
      }
    }
    return firstFailure;
  };
  for (const step of steps) {
    if (!step) continue;
    let result: unknown;
    try {
      result = await inStepSpan(name, step.name, () => step.run(ctx));
    } catch (err) {
      if (done.length > 0) {
        log.error(
          { err, flow: name, step: step.name },
          `${name}: "${step.name}" failed; undoing the steps before it`,
        );
        await undoAll(err);
      }
      throw err;
    }
    if (result instanceof FlowStop) {
      const failed = await undoAll(undefined);
      if (failed !== undefined) throw failed;
      return result.value as S;
    }
    done.push({ step, result });
  }
  return undefined;
}

const inStepSpan = <T>(flow: string, step: string, fn: () => Promise<T>) =>
  inSpan(
    `${flow}: ${step}`,
    { kind: SpanKind.INTERNAL, attributes: { 'flow.name': flow, 'flow.step': step } },
    fn,
  );
