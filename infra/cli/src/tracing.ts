/**
 * `npm start -- --tracing` (or TRACING=1): Zipkin beside the product (infra/stack/src/zipkin.ts),
 * every service, worker and the gateway sending it their spans, its address printed with the rest.
 * Off by default: without it no process loads the tracing SDK at all.
 */
import path from 'node:path';
import { assertPortFree, portFromEnv, type RunningProcess, startZipkin } from '@decor/stack';

/** Zipkin's usual port, moved by DECOR_PORT_OFFSET like the services' (or pinned by ZIPKIN_PORT). */
const ZIPKIN_PORT = 9411;

export function tracingRequested(argv = process.argv, env = process.env): boolean {
  return argv.includes('--tracing') || env.TRACING === '1' || env.TRACING === 'true';
}

export interface TracingViewer {
  /** Zipkin's UI. */
  url: string;
  process: RunningProcess;
}

/**
 * Points `env` (what every process gets) at the viewer at once, then starts it: the services start
 * meanwhile, and their spans reach it once it is up (a few start-up spans may be lost, nothing else).
 */
export function startTracingViewer(
  env: NodeJS.ProcessEnv,
  o: { offset: number; logDir: string; log: (line: string) => void; signal: AbortSignal },
): Promise<TracingViewer> {
  const port = portFromEnv('ZIPKIN_PORT', ZIPKIN_PORT + o.offset);
  env.TRACING_ZIPKIN_URL = `http://127.0.0.1:${port}/api/v2/spans`;
  return assertPortFree(port, 'zipkin', 'ZIPKIN_PORT, or DECOR_PORT_OFFSET to move them all,').then(
    async () => {
      const zipkin = await startZipkin({
        port,
        log: o.log,
        logFile: path.join(o.logDir, 'zipkin.log'),
        signal: o.signal,
      });
      return { url: zipkin.url, process: zipkin.process };
    },
  );
}
