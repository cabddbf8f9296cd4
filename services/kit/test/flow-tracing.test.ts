import { SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { runFlow } from '../src/flow';
import { markTracingActive } from '../src/tracing/context';

const exporter = new InMemorySpanExporter();

beforeAll(() => {
  trace.setGlobalTracerProvider(
    new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }),
  );
  markTracingActive(async () => {});
});

it('makes a span of each step and of each undo, named after the flow and the step; a failed step is an error', async () => {
  const log = { error: () => {} };
  await expect(
    runFlow(
      'attach',
      undefined,
      [
        { name: 'claim', run: async () => 'claimed', undo: async () => {} },
        {
          name: 'check',
          run: async () => {
            throw new Error('too large');
          },
        },
      ],
      log,
    ),
  ).rejects.toThrow('too large');
  const spans = exporter.getFinishedSpans();
  expect(spans.map((s) => s.name)).toEqual(['attach: claim', 'attach: check', 'attach: undo: claim']);
  expect(spans[1]?.attributes).toMatchObject({ 'flow.name': 'attach', 'flow.step': 'check' });
  expect(spans[1]?.status.code).toBe(SpanStatusCode.ERROR);
  expect(spans[0]?.status.code).not.toBe(SpanStatusCode.ERROR);
});
