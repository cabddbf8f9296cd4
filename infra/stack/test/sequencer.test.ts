/** The suite's file order on a fresh checkout (no timings): heavy and long-waiting files first, interleaved. */
const HeavyFirst = require('../test-support/sequencer.cjs');

const file = (path: string, size: number, duration?: number) => ({
  path,
  duration,
  context: { config: { cacheDirectory: '/nonexistent', name: 'p' }, hasteFS: { getSize: () => size } },
});

function order(tests: ReturnType<typeof file>[]): string[] {
  const sequencer = new HeavyFirst({ contexts: [], globalConfig: {} });
  // jest's timings of the last run (its perf cache: path → [failed, ms]); none on a fresh checkout
  const timings = Object.fromEntries(tests.filter((t) => t.duration).map((t) => [t.path, [0, t.duration]]));
  sequencer._getCache = () => timings;
  return sequencer.sort(tests).map((t: { path: string }) => t.path.replace('/repo/', ''));
}

test('without timings, browser files and the chaos suite alternate with the long-waiting files, then the rest by size', () => {
  expect(
    order([
      file('/repo/services/cart/test/big.test.ts', 9000),
      file('/repo/services/accounting-sync/test/outage.test.ts', 10),
      file('/repo/frontends/e2e/test/journeys.test.ts', 500),
      file('/repo/infra/testbed/test/chaos.test.ts', 20),
      file('/repo/gateway/test/order-stream.test.ts', 30),
      file('/repo/frontends/e2e/test/orders.test.ts', 400),
    ]),
  ).toEqual([
    'frontends/e2e/test/journeys.test.ts',
    'gateway/test/order-stream.test.ts',
    'frontends/e2e/test/orders.test.ts',
    'services/accounting-sync/test/outage.test.ts',
    'infra/testbed/test/chaos.test.ts',
    'services/cart/test/big.test.ts',
  ]);
});

test('a file with a timing keeps the place jest gives it (longest first)', () => {
  expect(
    order([
      file('/repo/services/cart/test/slow.test.ts', 10, 90_000),
      file('/repo/services/accounting-sync/test/outage.test.ts', 10, 5_000),
      file('/repo/frontends/e2e/test/journeys.test.ts', 10, 60_000),
    ]),
  ).toEqual([
    'services/cart/test/slow.test.ts',
    'frontends/e2e/test/journeys.test.ts',
    'services/accounting-sync/test/outage.test.ts',
  ]);
});
