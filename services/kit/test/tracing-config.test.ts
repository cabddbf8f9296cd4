import { sampleRatio, TRACING_ENV, tracingExporterFrom, tracingSettingProblems } from '../src/tracing';

// What the deployment files' tests (infra/cli/test/compose.test.ts, kubernetes.test.ts) lean on.
describe('the tracing settings a process reads', () => {
  it('exports over OTLP only with an endpoint; an empty one (compose and the base leave it so) is off', () => {
    expect(tracingExporterFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBeUndefined();
    expect(tracingExporterFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' })).toEqual({
      kind: 'otlp',
    });
    expect(tracingExporterFrom({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toEqual({
      kind: 'otlp',
    });
    expect(tracingExporterFrom({ TRACING_ZIPKIN_URL: 'http://127.0.0.1:9411/api/v2/spans' })).toEqual({
      kind: 'zipkin',
      url: 'http://127.0.0.1:9411/api/v2/spans',
    });
  });

  it('samples the share OTEL_TRACES_SAMPLER_ARG names, all of it by default or when unreadable', () => {
    expect([
      sampleRatio(undefined),
      sampleRatio(''),
      sampleRatio('0.1'),
      sampleRatio('2'),
      sampleRatio('x'),
    ]).toEqual([1, 1, 0.1, 1, 1]);
  });

  it('says what is wrong with a setting, so a deployment file cannot carry one silently', () => {
    expect(
      tracingSettingProblems({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
    ).toEqual([]);
    expect(
      tracingSettingProblems({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318',
        OTEL_TRACES_SAMPLER_ARG: '10',
        OTEL_TRACES_SAMPLER: 'traceidratio',
      }),
    ).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL',
      'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1',
      'OTEL_TRACES_SAMPLER has no effect: the gateway samples',
    ]);
    expect(TRACING_ENV).toEqual(
      expect.arrayContaining(['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_TRACES_SAMPLER_ARG']),
    );
  });
});
