/**
 * Finds what keeps a jest worker alive at the end of a run ("A worker process has failed to exit
 * gracefully"). Opt-in, for a whole run:
 *
 *   NODE_OPTIONS="--disable-warning=TimeoutNegativeWarning --require $PWD/infra/stack/test-support/exit-probe.cjs" npx jest
 *
 * From the root, jest itself, not `npm test` (that script sets NODE_OPTIONS of its own, which would
 * drop the probe), and with an absolute path: the processes tests start inherit NODE_OPTIONS, and a
 * relative path does not resolve from their working directories (they fail to start).
 *
 * In each jest worker it keeps every live timer (with its creation stack when JEST_EXIT_PROBE_STACKS=1,
 * which makes a whole run far slower). When jest tells the worker to end it logs that, when the worker
 * exits it logs how long after, and when jest has to SIGTERM it (the forced exit) it logs the timers
 * still holding it (their callbacks' source, or their stacks) and its other open handles. The log:
 * $JEST_EXIT_PROBE_LOG, default <tmpdir>/jest-exit-probe.log. A warning while every worker logged its
 * "exit" at once means the process's teardown, not a handle, took jest's grace (workerGracefulExitTimeout).
 */
if (process.send && process.argv[1]?.includes('processChild')) {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { createHook } = require('node:async_hooks');
  const logFile = process.env.JEST_EXIT_PROBE_LOG || path.join(os.tmpdir(), 'jest-exit-probe.log');
  const log = (line) => fs.appendFileSync(logFile, `${line}\n`);
  const CHILD_MESSAGE_END = 2; // jest-worker's "end" message

  // Stacks are costly to record for every timer (a whole run did not finish in 15 minutes): by
  // default a timer is named by its callback's source; JEST_EXIT_PROBE_STACKS=1 records stacks too.
  const withStacks = process.env.JEST_EXIT_PROBE_STACKS === '1';
  const timers = new Map();
  createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout') timers.set(id, { resource, stack: withStacks ? new Error().stack : undefined });
    },
    destroy(id) {
      timers.delete(id);
    },
  }).enable();

  let endAskedAt = 0;
  const since = () =>
    endAskedAt ? `${Date.now() - endAskedAt} ms after the end was asked` : 'before the end';

  process.on('SIGTERM', () => {
    log(
      `worker ${process.pid}: forced, ${since()}; open: ${JSON.stringify(process.getActiveResourcesInfo())}`,
    );
    for (const { resource, stack } of timers.values()) {
      if (resource._destroyed || !resource.hasRef()) continue;
      const where = stack
        ? `set at\n${stack.split('\n').slice(3, 15).join('\n')}`
        : `calling ${String(resource._onTimeout).replace(/\s+/g, ' ').slice(0, 300)}`;
      log(`  a timer of ${resource._idleTimeout} ms${resource._repeat ? ' (repeating)' : ''}, ${where}`);
    }
    for (const handle of process._getActiveHandles()) {
      const kind = handle?.constructor?.name;
      if (kind === 'Socket' && handle._handle?.fd <= 2) continue; // stdio
      const where = kind === 'Socket' ? ` ${handle.localPort} -> ${handle.remotePort}` : '';
      log(`  a ${kind}${where}${handle.spawnfile ? ` (${handle.spawnfile} ${handle.pid})` : ''}`);
    }
    process.exit(143);
  });
  // The memory the process still holds then: the OS frees it after this line, and jest sees the exit
  // only once that is done, which under load can take longer than jest's grace for a worker's exit.
  process.on('exit', () =>
    log(
      `worker ${process.pid}: exit, ${since()}, ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB resident`,
    ),
  );
  const onMessage = (message) => {
    if (!Array.isArray(message) || message[0] !== CHILD_MESSAGE_END) return;
    process.removeListener('message', onMessage); // a listener of ours would keep the IPC channel open
    endAskedAt = Date.now();
    log(`worker ${process.pid}: end asked`);
  };
  process.on('message', onMessage);
}
