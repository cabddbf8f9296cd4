/**
 * The emulator and mail catcher that jest's global setup started (infra/stack/test-support), read
 * straight from its DECOR_TEST_ENDPOINTS: @decor/stack depends on this package (it runs the
 * emulator), so importing its testEndpoints() here would make a package loop.
 */
export interface EmulatorTestEndpoints {
  qbo: { url: string; clientId: string; clientSecret: string; realmId: string };
  mailApiUrl: string;
}

export function testEndpoints(): EmulatorTestEndpoints {
  const raw = process.env.DECOR_TEST_ENDPOINTS;
  if (!raw) throw new Error('DECOR_TEST_ENDPOINTS is not set: run tests through jest with the repo config');
  return JSON.parse(raw) as EmulatorTestEndpoints;
}
