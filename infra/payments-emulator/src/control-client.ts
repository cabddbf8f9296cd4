/** JSON to and from the payments emulator's control API (`/__emulator/...`), for tests and benchmarks. */

export interface EmulatorEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> & { id: string } };
  deliveries: {
    endpointId: string;
    attempts: number;
    status: 'delivered' | 'failed' | 'due';
    lastError?: string;
  }[];
}

export interface WebhookEndpointInfo {
  id: string;
  url: string;
  secret: string;
  apiKey?: string;
  enabledEvents: string[];
}

/**
 * Each control call on a connection of its own: a caller's first call after a long pause (a test
 * file in a reused jest worker) would otherwise be written to a pooled socket the emulator had closed
 * meanwhile and fail with "other side closed" (as the QuickBooks emulator's did in CI).
 */
const OWN_CONNECTION = { connection: 'close' };

export function paymentsControl(url: string) {
  const call = async <T = unknown>(
    path: string,
    init: { method?: string; json?: unknown } = {},
  ): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method: init.method ?? 'GET',
      headers:
        init.json === undefined ? OWN_CONNECTION : { ...OWN_CONNECTION, 'content-type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    if (!res.ok) throw new Error(`payments emulator ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    call,
    /** Moves the emulator's clock forward; authorisations past their 7 days lapse at once. */
    advanceClock: (seconds: number) =>
      call<{ now: string; offsetSeconds: number; lapsed: number }>('/__emulator/clock', {
        method: 'POST',
        json: { advanceSeconds: seconds },
      }),
    /**
     * `{ down: true }` API calls answer 503; `{ down: 'refuse', forSeconds }` the port refuses
     * connections; `{ slowMs }` each API call waits first (with `conflicts: true`, a request whose
     * Idempotency-Key is still executing gets Stripe's 409). Ends after forSeconds, or on clearFaults().
     */
    setFault: (
      fault:
        | { down: true | 'refuse'; forSeconds?: number }
        | { slowMs: number; conflicts?: boolean; forSeconds?: number },
    ) => call('/__emulator/faults', { method: 'POST', json: fault }),
    clearFaults: () => call('/__emulator/faults', { method: 'DELETE' }),
    /** Where events go; `apiKey` limits them to objects made with that secret key (one test's own). */
    addWebhookEndpoint: (spec: { url: string; secret?: string; apiKey?: string; enabledEvents?: string[] }) =>
      call<WebhookEndpointInfo>('/__emulator/webhook-endpoints', { method: 'POST', json: spec }),
    removeWebhookEndpoint: (id: string) =>
      call(`/__emulator/webhook-endpoints/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    /** Events newest first, each with its deliveries. */
    events: (filter: { type?: string; paymentIntent?: string; limit?: number } = {}) => {
      const q = new URLSearchParams(
        Object.entries(filter).flatMap(([k, v]): [string, string][] =>
          v === undefined ? [] : [[k, String(v)]],
        ),
      );
      return call<EmulatorEvent[]>(`/__emulator/events${q.size ? `?${q}` : ''}`);
    },
  };
}
