// autocannon ships no types; this covers the programmatic API the benchmark uses
// (see node_modules/autocannon/README.md, "autocannon(opts[, cb])").
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    timeout?: number;
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

  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
