/**
 * Jest's order of test files, with what it cannot know on a machine without its cache (a fresh CI
 * checkout): it runs the files that took longest last time first, and with no timings the biggest
 * files first. The heaviest suites are not the biggest files: each browser file starts a whole
 * product and Chromium (60-130 s), the chaos suite a product of its own (~110 s, a 1.4 kB file that
 * came 185th of 200 by size). Started near the end, one of them kept one worker busy while the other
 * idled; without a timing these go first (with one, jest's own order stands).
 */
const Sequencer = require('@jest/test-sequencer').default;

const HEAVY = [/\/frontends\/e2e\/test\/[^/]+\.test\.ts$/, /\/infra\/testbed\/test\/chaos\.test\.ts$/];

class HeavyFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const heavyUntimed = (t) =>
      t.duration == null && HEAVY.some((re) => re.test(t.path.split('\\').join('/')));
    return [...sorted.filter(heavyUntimed), ...sorted.filter((t) => !heavyUntimed(t))];
  }
}

module.exports = HeavyFirst;
