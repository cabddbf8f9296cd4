// autocannon ships no types; this covers the programmatic API the benchmark uses
// (see node_modules/autocannon/README.md, "autocannon(opts[, cb])" and "aggregateResult").
declare module 'autocannon' {
  function autocannon(
    options: autocannon.Options & { skipAggregateResult: true },
  ): Promise<autocannon.RawResult>;
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      timeout?: number;
      /** Resolve with the raw result (encoded histograms) so several runs can be merged. */
      skipAggregateResult?: boolean;
    }

    /** Latency figures in ms; requests in requests per second (mean over 1 s samples). */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      duration: number;
      latency: Histogram;
      requests: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
    }

    /** What a run with skipAggregateResult resolves to. */
    interface RawResult {
      totalCompletedRequests: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      /** Seconds. */
      duration: number;
    }

    /** Merges raw results: latency histograms and counts are added (duration and start are the first run's). */
    function aggregateResult(results: RawResult[], opts: { url: string; connections?: number }): Result;
  }

  export = autocannon;
}
