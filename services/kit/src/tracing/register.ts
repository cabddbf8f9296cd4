/**
 * Imported first by the kit's index, so the SDK's instrumentations are in place before the kit
 * requires mongodb, ioredis, kafkajs or fastify (esbuild leaves those outside the bundles, so they
 * are patched in `dist` as under tsx). Without a configured exporter nothing is loaded.
 */
import { tracingExporterFrom } from './config';

const exporter = tracingExporterFrom(process.env);
if (exporter) {
  // A require, not an import: the SDK is loaded only when tracing is on.
  (require('./sdk') as typeof import('./sdk')).startTracing(exporter);
}
