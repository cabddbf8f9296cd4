/**
 * `@decor/stack/tools`: the browser and file helpers of the journeys, benches, gateway tests and the
 * frontend build. Kept out of the main entry so that importing the test endpoints does not load playwright.
 */
export { type ChromiumBuild, launchHeadlessChromium } from './chromium';
export { precompress } from './precompress';
