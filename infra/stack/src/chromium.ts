import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium package (installed by .ci/run); playwright's own browsers cannot be downloaded here. */
export const CHROMIUM = '/usr/bin/chromium';

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

/** Headless Debian Chromium on a fresh profile folder (a `--user-data-dir` argument to `launch` is refused). */
export function launchHeadlessChromium(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
}
