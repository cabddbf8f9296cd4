/**
 * `@decor/infra/tools`: build and browser helpers for the journeys, benches and gateway tests. Kept
 * out of the main entry so that importing the test endpoints does not load webpack or playwright.
 */
export { launchHeadlessChromium } from './chromium';
export { buildFrontends, describeFrontendBuilds } from './cli/frontends';
export { precompress } from './cli/precompress';
export { REPO_ROOT } from './cli/runnables';
