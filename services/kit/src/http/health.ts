import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Resolves (or returns true) when the dependency is usable; throws or returns false when it is not. */
export type ReadinessCheck = () => Promise<unknown> | unknown;

export interface CheckResult {
  status: 'up' | 'down';
  reason?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Adds a dependency to `/readyz` (Mongo, Kafka consumers, Redis, …). */
    addReadinessCheck(name: string, check: ReadinessCheck): void;
    /** Runs every readiness check once (what `/readyz` answers). */
    checkReadiness(): Promise<{ ready: boolean; checks: Record<string, CheckResult> }>;
  }
}

export interface HealthOptions {
  /** Per-check time limit, so a hung dependency makes `/readyz` answer 503 instead of hanging. */
  checkTimeoutMs?: number;
  /** false: no `/readyz` on this app (the public edge answers it on its internal port, `listenInternal`). */
  readinessRoute?: boolean;
}

/** Apps that have answered ready once: "not ready" before that is their start-up, not a warning. */
const everReady = new WeakSet<FastifyInstance>();

/** What `/readyz` answers: 200 with every check, or 503 naming what is down (logged). */
export async function readinessAnswer(
  app: FastifyInstance,
  log: FastifyInstance['log'],
): Promise<{ status: number; body: object }> {
  const { ready, checks: results } = await app.checkReadiness();
  if (ready) {
    everReady.add(app);
    return { status: 200, body: { status: 'ready', checks: results } };
  }
  const down = Object.entries(results)
    .filter(([, r]) => r.status === 'down')
    .map(([name, r]) => `${name} (${r.reason})`);
  const message = `Not ready: ${down.join(', ')}`;
  if (everReady.has(app)) log.warn({ checks: results }, message);
  else log.info({ checks: results }, message);
  return { status: 503, body: { message, checks: results } };
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const result = await Promise.race([Promise.resolve().then(check), timeout]);
    return result === false ? { status: 'down', reason: 'not ready' } : { status: 'up' };
  } catch (err) {
    return { status: 'down', reason: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** `/healthz`: the process is alive. `/readyz`: every registered dependency answers. */
export const healthPlugin = fp(
  async (app: FastifyInstance, opts: HealthOptions) => {
    const timeoutMs = opts.checkTimeoutMs ?? 2000;
    const checks = new Map<string, ReadinessCheck>();

    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
      if (checks.has(name)) throw new Error(`Readiness check '${name}' is already registered`);
      checks.set(name, check);
    });

    app.decorate('checkReadiness', async () => {
      const entries = await Promise.all(
        [...checks].map(async ([name, check]) => [name, await runCheck(check, timeoutMs)] as const),
      );
      return { ready: entries.every(([, r]) => r.status === 'up'), checks: Object.fromEntries(entries) };
    });

    app.get('/healthz', async () => ({ status: 'ok' }));

    if (opts.readinessRoute === false) return;
    app.get('/readyz', async (request, reply) => {
      const answer = await readinessAnswer(app, request.log);
      return reply.code(answer.status).send(answer.body);
    });
  },
  { name: 'decor-health' },
);
