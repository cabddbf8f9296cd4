/** Child process for http-run.test.ts: a service with a slow route and closers, run by runService. */
import { createServiceApp, runService } from '../src/http';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hang = process.env.HANG_CLOSER === '1';

async function main() {
  const app = await createServiceApp({ name: 'run-test', logLevel: 'info' });
  app.get('/slow', async () => {
    await sleep(800);
    return { done: true };
  });
  // A promise rejected with nobody awaiting it, as a fire-and-forget write gone wrong would be.
  app.get('/stray-rejection', async () => {
    void Promise.reject(new Error('stray: nobody awaited this'));
    return { answered: true };
  });
  await runService({
    app,
    port: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 5000),
    drainDelayMs: Number(process.env.DRAIN_DELAY_MS ?? 0),
    onClose: [
      { name: 'consumers', close: () => (hang ? new Promise(() => undefined) : sleep(50)) },
      { name: 'mongo', close: () => sleep(10) },
    ],
  });
}

void main();
