/** Jest global teardown: stops what global-setup started (jest runs it after failing tests too). */
import type { InfraHandle } from '../src/infra';
import { HANDLE_KEY } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const store = globalThis as Record<string, unknown>;
  const handle = store[HANDLE_KEY] as InfraHandle | undefined;
  delete store[HANDLE_KEY];
  await handle?.stop();
}
