/**
 * A journey's own limit: two minutes, each of its steps bounded by Playwright's 15 s. Set here
 * because Jest reads `testTimeout` from the root config only (60 s for every project): the checkout
 * journey takes 35 s alone and ran out at 60 with the other browser files beside it on 2 cores.
 */
jest.setTimeout(120_000);
