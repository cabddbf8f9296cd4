/**
 * Each control call on a connection of its own (`connection: close`): the callers (test files in a
 * reused jest worker, a bench between parts) call after long pauses, and a pooled socket the
 * emulator closed while the caller's loop was busy would be written to anyway, failing the call with
 * "other side closed" (CI, a QuickBooks test's first call).
 */
const OWN_CONNECTION = { connection: 'close' };

/**
 * What a person's click on Connect on the emulator's consent page does, for tests and benchmarks:
 * posts the consent form for `realmId` and returns where QuickBooks sends the browser back
 * (`<redirect_uri>?code&state&realmId`).
 */
export async function consentRedirect(authorizeUrl: string, realmId: string): Promise<URL> {
  const url = new URL(authorizeUrl);
  const form = new URLSearchParams({
    client_id: url.searchParams.get('client_id') ?? '',
    redirect_uri: url.searchParams.get('redirect_uri') ?? '',
    scope: url.searchParams.get('scope') ?? '',
    state: url.searchParams.get('state') ?? '',
    realmId,
  });
  const res = await fetch(`${url.origin}/connect/oauth2/consent`, {
    method: 'POST',
    headers: { ...OWN_CONNECTION, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`the emulator's consent answered ${res.status}`);
  return new URL(location);
}

/** JSON to and from the emulator's control API (`/__emulator/...`) and records, for tests and benchmarks. */
export function emulatorControl(url: string) {
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
    if (!res.ok) throw new Error(`emulator ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    call,
    /** A fresh, empty company: faults, limits and tokens of one never reach another. */
    newCompany: (name: string) =>
      call<{ realmId: string; name: string }>('/__emulator/companies', { method: 'POST', json: { name } }),
  };
}
