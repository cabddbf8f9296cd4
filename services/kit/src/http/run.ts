import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { markClosing } from './app';

/** Something to stop after the HTTP server, in the order given (consumers, workers, relay, then db). */
export interface Closer {
  name: string;
  close: () => Promise<unknown> | unknown;
}

/** The default shutdown budget; an orchestrator's grace period must exceed it (infra/kubernetes). */
export const SHUTDOWN_BUDGET_MS = 20_000;

export interface RunServiceOptions {
  app: FastifyInstance;
  port: number;
  host: string;
  onClose?: Closer[];
  /**
   * From SIGTERM until the port closes: /readyz answers 503 and requests are served as before (each
   * answer closing its connection), so a load balancer stops sending here first. Default 0.
   */
  drainDelayMs?: number;
  /** Whole shutdown budget; past it the process exits 1 rather than hang. Default SHUTDOWN_BUDGET_MS. */
  shutdownTimeoutMs?: number;
  /** Injected in tests; defaults to process.exit. */
  exit?: (code: number) => void;
  /**
   * Log a stray promise rejection and keep serving (keepAlive). Default: when this is the process's
   * own service (no `exit` injected), so a test runner's process keeps its own handling.
   */
  keepAliveOnStrayRejection?: boolean;
}

export interface RunningService {
  /** The bound address, e.g. http://127.0.0.1:3101 */
  url: string;
  /** What SIGTERM triggers; resolves with the exit code it passed to `exit`. */
  shutdown(reason: string): Promise<number>;
}

let rejectionsKept = false;

/**
 * A promise rejected with nobody awaiting it (a fire-and-forget write, a library's stray timer) is
 * logged with its error and the process keeps serving: the request or job it belonged to has
 * answered or retries on its own, and ending every other request for it would be worse. An
 * uncaught exception still ends the process (Node's default, stack on stderr): a synchronous throw
 * that escaped leaves state half-changed, and the supervisor (`npm start`, or an orchestrator)
 * restarts the process clean.
 */
export function keepAliveOnStrayRejection(log: FastifyInstance['log']): void {
  if (rejectionsKept) return;
  rejectionsKept = true;
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection (logged; the process keeps running)');
  });
}

/**
 * Listens, then on SIGTERM/SIGINT: stop accepting and finish in-flight requests (`app.close`),
 * run the closers in order, exit 0. A second signal, or the budget running out, exits 1 at once.
 */
export async function runService(opts: RunServiceOptions): Promise<RunningService> {
  const { app } = opts;
  const log = app.log;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const budgetMs = opts.shutdownTimeoutMs ?? SHUTDOWN_BUDGET_MS;
  let stopping: Promise<number> | undefined;
  if (opts.keepAliveOnStrayRejection ?? opts.exit === undefined) keepAliveOnStrayRejection(log);

  let draining = false;
  // Not ready from the signal on: a balancer polling /readyz takes this instance out before it closes.
  if (app.hasDecorator('addReadinessCheck'))
    app.addReadinessCheck('shutdown', () => {
      if (draining) throw new Error('shutting down');
    });

  const steps = async (reason: string): Promise<number> => {
    const started = Date.now();
    draining = true;
    markClosing(app);
    if (opts.drainDelayMs) {
      log.info({ reason, ms: opts.drainDelayMs }, 'shutting down: not ready, serving until the port closes');
      await sleep(opts.drainDelayMs);
    }
    log.info({ reason }, 'shutting down: no new requests, finishing in-flight ones');
    await app.close();
    log.info('shutdown: http server closed');
    for (const closer of opts.onClose ?? []) {
      try {
        await closer.close();
        log.info(`shutdown: ${closer.name} closed`);
      } catch (err) {
        log.error({ err }, `shutdown: ${closer.name} failed to close`);
      }
    }
    log.info({ ms: Date.now() - started }, 'shutdown complete');
    return 0;
  };

  const shutdown = (reason: string): Promise<number> => {
    stopping ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const overdue = new Promise<number>((resolve) => {
        timer = setTimeout(() => {
          log.error(`shutdown: not finished within ${budgetMs} ms, exiting`);
          resolve(1);
        }, budgetMs);
      });
      // The budget timer stays ref'd: a closer awaiting nothing must not let the process drift out with 0.
      const code = await Promise.race([
        steps(reason).catch((err) => {
          log.error({ err }, 'shutdown failed');
          return 1;
        }),
        overdue,
      ]);
      clearTimeout(timer);
      exit(code);
      return code;
    })();
    return stopping;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn(`${signal} again: forcing exit`);
      exit(1);
      return;
    }
    void shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  // Fastify logs the "listening at" line itself.
  const url = await app.listen({ port: opts.port, host: opts.host });
  return { url, shutdown };
}
