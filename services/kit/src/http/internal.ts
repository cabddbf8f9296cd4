import Fastify, { type FastifyInstance } from 'fastify';
import { METRICS_PATH, metricsHandler } from '../metrics/http';
import { readinessAnswer } from './health';

export interface InternalListenOptions {
  /** 0: a free port (tests); the URL is returned. */
  port: number;
  host: string;
}

/**
 * The operator's port of a public process (`operations: 'internal'`): `/healthz`, `/readyz`,
 * `/metrics` and `/openapi.json` of `app`, and nothing else, on a listener of their own that is
 * never published (probes and the scraper reach it on the private network). Closed with `app`;
 * call it before `app` is ready.
 */
export async function listenInternal(app: FastifyInstance, opts: InternalListenOptions): Promise<string> {
  const internal = Fastify({ logger: false });
  internal.get('/healthz', async () => ({ status: 'ok' }));
  internal.get('/readyz', async (_request, reply) => {
    const answer = await readinessAnswer(app, app.log);
    return reply.code(answer.status).send(answer.body);
  });
  internal.get(METRICS_PATH, metricsHandler(app.metrics));
  internal.get('/openapi.json', async () => app.swagger());
  const url = await internal.listen({ port: opts.port, host: opts.host });
  app.addHook('onClose', async () => {
    await internal.close();
  });
  app.log.info({ url }, 'probes, metrics and the OpenAPI document on the internal port');
  return url;
}
