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
/**
 * Files that mostly wait (an outage held for 40-60 s, a stream held open, `npm start` itself): 45-80 s
 * each, little CPU. Started last (by size they come late) one of them ran alone for a minute at the end
 * of a 3-worker run; interleaved with the heavy ones, they wait while those work.
 */
const LONG = [
  /\/services\/accounting-sync\/test\/outage\.test\.ts$/,
  /\/services\/notification\/test\/smtp-long-outage\.test\.ts$/,
  /\/infra\/cli\/test\/start\.test\.ts$/,
  /\/gateway\/test\/order-stream\.test\.ts$/,
];

const untimedIn = (patterns) => (t) =>
  t.duration == null && patterns.some((re) => re.test(t.path.split('\\').join('/')));

class HeavyFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const heavy = sorted.filter(untimedIn(HEAVY));
    const long = sorted.filter(untimedIn(LONG));
    const first = [];
    for (let i = 0; i < Math.max(heavy.length, long.length); i++) {
      if (heavy[i]) first.push(heavy[i]);
      if (long[i]) first.push(long[i]);
    }
    return [...first, ...sorted.filter((t) => !first.includes(t))];
  }
}

module.exports = HeavyFirst;
