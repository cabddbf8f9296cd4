import { existsSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium package (installed by .ci/run): the browser visitors run, measured by the bench. */
const CHROMIUM = '/usr/bin/chromium';
/**
 * Debian's chromium-headless-shell package (installed by .ci/run): the same Blink without the browser's
 * own windows. In full Chromium's headless mode every context opens a window whose tab strip is a WebUI
 * page with a renderer of its own; a browser test file spent 22 % less Chromium CPU on the shell (the
 * browser tests are CPU-bound on 2 cores). Full Chromium where the shell is not installed.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Which of the two a launch runs: the headless shell (tests) or full Chromium (what visitors run). */
export type ChromiumBuild = 'shell' | 'full';

/** Quiet, offline-friendly flags (STACK-NOTES.md "Browser tests"): no sandbox as root, no background traffic. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Headless Chromium on a fresh profile folder (a `--user-data-dir` argument to `launch` is refused):
 * the headless shell for tests, full Chromium with `browser: 'full'` (the bench's figures).
 */
export function launchHeadlessChromium(
  profileDir: string,
  { browser = 'shell' }: { browser?: ChromiumBuild } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: browser === 'shell' && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM,
    headless: true,
    args: ARGS,
  });
}
