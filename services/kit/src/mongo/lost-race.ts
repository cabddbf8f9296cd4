import { setTimeout as delay } from 'node:timers/promises';

/**
 * The pause before a revision-guarded write that lost its race reads and recomputes again: 5 ms
 * doubled per attempt (1 first), with jitter (0.5-1.5×) so two writers that collided do not collide
 * again in step.
 */
export function afterLostRace(attempt: number): Promise<void> {
  return delay(5 * 2 ** attempt * (0.5 + Math.random()));
}
