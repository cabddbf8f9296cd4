import { nextTask } from './next-task';

/**
 * The shell's start (issue 31). Shared modules (React, the store, antd) are resolved before any of
 * them runs: the async boundary of module federation. It comes in parts (./start/): the chunks of
 * each part, and the federation runtime's loading of the shared libraries in them, are asked for in
 * a task of their own, all before any part runs; then the parts run in order, a module or two a
 * task. One import() of everything was two long tasks on the phone profile (the federation
 * runtime's loads, up to 370 ms; then every module of the app at once, over 500 ms) that a tap
 * waited behind; now it is a dozen shorter ones (the longest, the first part's loads, about 70 ms
 * on a quiet machine).
 */
const PARTS = [
  () => import('./start/react'),
  () => import('./start/ui'),
  () => import('./start/state'),
  () => import('./start/app'),
];

async function start(): Promise<void> {
  const parts: Promise<{ run(): Promise<void> }>[] = [];
  for (const load of PARTS) {
    await nextTask();
    parts.push(load());
  }
  for (const part of parts) {
    const { run } = await part;
    // Not in the task that brought the part's last chunk (which may have arrived just now).
    await nextTask();
    await run();
  }
}

void start();
