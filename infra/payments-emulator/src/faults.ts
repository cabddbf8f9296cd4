/**
 * Faults set through the control API, so a caller's time box and retries can be tested:
 * `down` (every API call answers 503, or the port refuses connections for a while) and `slow`
 * (every API call waits before it is handled). Runtime only: a restart clears them.
 */

export interface FaultState {
  /** '503': API calls answer 503 api_error; 'refuse': the port is closed (see emulator.ts). */
  down?: '503' | 'refuse';
  /** Added before each API call is handled. */
  slowMs?: number;
  /**
   * With slowMs: a request whose Idempotency-Key another request is still executing gets Stripe's 409
   * (what Stripe does). Off, it is carried out on its own (and replays the first's answer if that
   * finished by then, else makes the object itself) — the emulator's behaviour before this switch.
   */
  conflicts?: boolean;
  /** When the fault ends by itself (ms, real time); absent = until cleared. */
  until?: number;
}

export class Faults {
  state: FaultState = {};
  private timer: NodeJS.Timeout | undefined;

  /** Sets a fault, replacing any other; `onEnd` runs when it ends by itself or is cleared. */
  set(fault: FaultState, forSeconds: number | undefined, onEnd?: () => void): FaultState {
    this.clear();
    this.state = {
      ...fault,
      ...(forSeconds ? { until: Date.now() + forSeconds * 1000 } : {}),
    };
    this.onEnd = onEnd;
    if (forSeconds) {
      this.timer = setTimeout(() => this.clear(), forSeconds * 1000);
      this.timer.unref();
    }
    return this.state;
  }

  private onEnd: (() => void) | undefined;

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.state = {};
    const end = this.onEnd;
    this.onEnd = undefined;
    end?.();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
