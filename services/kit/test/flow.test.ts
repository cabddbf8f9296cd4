import { type FlowStep, flowStep, runFlow, stop } from '../src/flow';

type Outcome = 'ok' | 'stop' | 'fail' | 'fail-undo' | 'partial';

/** Steps that record what they do in `trail`; 'partial' writes, then throws (its own write is not undone). */
function steps(outcomes: Outcome[]): FlowStep<{ trail: string[] }, string>[] {
  return outcomes.map((outcome, i) =>
    flowStep(
      `step ${i}`,
      async (ctx: { trail: string[] }) => {
        ctx.trail.push(`run ${i}`);
        if (outcome === 'fail') throw new Error(`step ${i} failed`);
        if (outcome === 'partial') {
          ctx.trail.push(`wrote part of ${i}`);
          throw new Error(`step ${i} failed half-way`);
        }
        return outcome === 'stop' ? stop(`refused at ${i}`) : `result ${i}`;
      },
      async (ctx, result: string) => {
        if (outcome === 'fail-undo') throw new Error(`undo ${i} failed`);
        ctx.trail.push(`undo ${i} (${result})`);
      },
    ),
  );
}

function recorder() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    error: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }),
  };
}

describe('a flow of named steps', () => {
  it('runs every step in order and answers undefined when none stops', async () => {
    const ctx = { trail: [] as string[] };
    const log = recorder();
    await expect(runFlow('test', ctx, steps(['ok', 'ok', 'ok']), log)).resolves.toBeUndefined();
    expect(ctx.trail).toEqual(['run 0', 'run 1', 'run 2']);
    expect(log.lines).toEqual([]);
  });

  it('skips a step left false', async () => {
    const ctx = { trail: [] as string[] };
    const [a, b] = steps(['ok', 'ok']);
    await runFlow(
      'test',
      ctx,
      [a as FlowStep<{ trail: string[] }, string>, false, b as FlowStep<{ trail: string[] }, string>],
      recorder(),
    );
    expect(ctx.trail).toEqual(['run 0', 'run 1']);
  });

  it('on a stop, undoes the steps done last first, each with what it answered, and answers the stop', async () => {
    const ctx = { trail: [] as string[] };
    const answer = await runFlow('test', ctx, steps(['ok', 'ok', 'stop', 'ok']), recorder());
    expect(answer).toBe('refused at 2');
    expect(ctx.trail).toEqual(['run 0', 'run 1', 'run 2', 'undo 1 (result 1)', 'undo 0 (result 0)']);
  });

  it('on a failure, undoes the steps done last first, logs the flow and step, then throws the step error', async () => {
    const ctx = { trail: [] as string[] };
    const log = recorder();
    await expect(runFlow('submit', ctx, steps(['ok', 'ok', 'fail', 'ok']), log)).rejects.toThrow(
      'step 2 failed',
    );
    expect(ctx.trail).toEqual(['run 0', 'run 1', 'run 2', 'undo 1 (result 1)', 'undo 0 (result 0)']);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.fields).toMatchObject({ flow: 'submit', step: 'step 2' });
    expect(log.lines[0]?.message).toContain('"step 2"');
  });

  it('does not undo the step that threw after part of its work (its own guard copes), only those before it', async () => {
    const ctx = { trail: [] as string[] };
    await expect(runFlow('test', ctx, steps(['ok', 'partial']), recorder())).rejects.toThrow(
      'step 1 failed half-way',
    );
    expect(ctx.trail).toEqual(['run 0', 'run 1', 'wrote part of 1', 'undo 0 (result 0)']);
  });

  it('passes a first step failure on untouched, logging nothing (nothing to undo)', async () => {
    const ctx = { trail: [] as string[] };
    const log = recorder();
    const failure = runFlow('test', ctx, steps(['fail', 'ok']), log);
    await expect(failure).rejects.toThrow('step 0 failed');
    expect(ctx.trail).toEqual(['run 0']);
    expect(log.lines).toEqual([]);
  });

  it('an undo that fails does not mask the cause: the others are still undone, the step error is thrown', async () => {
    const ctx = { trail: [] as string[] };
    const log = recorder();
    await expect(runFlow('change', ctx, steps(['ok', 'fail-undo', 'ok', 'fail']), log)).rejects.toThrow(
      'step 3 failed',
    );
    expect(ctx.trail).toEqual(['run 0', 'run 1', 'run 2', 'run 3', 'undo 2 (result 2)', 'undo 0 (result 0)']);
    const undoLine = log.lines.find((l) => l.fields.step === 'step 1');
    expect(undoLine?.fields).toMatchObject({ flow: 'change', step: 'step 1' });
    expect((undoLine?.fields.err as Error | undefined)?.message).toBe('undo 1 failed');
    expect((undoLine?.fields.cause as Error | undefined)?.message).toBe('step 3 failed');
    expect(undoLine?.message).toContain('undo of "step 1" failed');
  });

  it('after a stop, an undo that fails is thrown (the stop answer would be untrue), the others still undone', async () => {
    const ctx = { trail: [] as string[] };
    const log = recorder();
    await expect(runFlow('test', ctx, steps(['ok', 'fail-undo', 'stop']), log)).rejects.toThrow(
      'undo 1 failed',
    );
    expect(ctx.trail).toEqual(['run 0', 'run 1', 'run 2', 'undo 0 (result 0)']);
    expect(log.lines.map((l) => l.fields.step)).toEqual(['step 1']);
  });

  it('a step without undo is skipped when undoing', async () => {
    const trail: string[] = [];
    const log = recorder();
    const answer = await runFlow(
      'test',
      undefined,
      [
        { name: 'a', run: async () => trail.push('a'), undo: async () => void trail.push('undo a') },
        { name: 'b', run: async () => trail.push('b') },
        { name: 'c', run: async () => stop('no') },
      ],
      log,
    );
    expect(answer).toBe('no');
    expect(trail).toEqual(['a', 'b', 'undo a']);
  });
});
