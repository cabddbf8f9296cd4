/**
 * The fault suite's short form (`npm run chaos -- --short`) in CI: its own copy of the product as
 * `npm start` runs it, a steady load of orders and QuickBooks sends, and SHORT_FAULTS (a service
 * killed, Redis, SMTP and QuickBooks frozen) for 10 s each; then the data must hold every order,
 * cart, e-mail and QuickBooks document exactly once, with no dead letter, no lag, every process ready,
 * and every request answered (2xx, 4xx or 503) within 5 s. Last, every service and the gateway are
 * restarted at once while a signed-out session's token is replayed: never accepted, 401 once ready
 * (issue 28). The full form runs each fault for 60 s.
 */
import { runChaos, SHORT } from '../src/chaos/run';

const TEN_MINUTES = 600_000;

it(
  'the short fault suite: every request answered within 5 s, nothing lost or doubled, everything back',
  async () => {
    const lines: string[] = [];
    const result = await runChaos({ ...SHORT, log: (line) => lines.push(line) });
    if (!result.verdict.ok) {
      throw new Error(
        `the fault suite failed:\n${result.verdict.failures.join('\n')}\n\n${result.report}\n\n--- run log ---\n${lines.slice(-40).join('\n')}`,
      );
    }
    expect(result.rows.map((r) => r.fault)).toEqual([
      'baseline',
      'kill order',
      'redis down',
      'smtp down',
      'qbo down',
      'restart all, replay ended session',
      'drain',
    ]);
    // The load really ran through every fault: orders were accepted and sent to QuickBooks.
    for (const row of result.rows.slice(0, -1)) expect(row.requests).toBeGreaterThan(0);
  },
  TEN_MINUTES,
);
