/**
 * Jest global setup: starts the test infrastructure once per run (free ports, fresh temp data,
 * memory Mongo) and hands its endpoints to the test workers through DECOR_TEST_ENDPOINTS, which
 * they inherit. Tests read them with testEndpoints() from @decor/stack.
 *
 * DECOR_INFRA=containers starts real images with testcontainers when a container engine answers.
 * A DECOR_TEST_ENDPOINTS already set by the caller is used as is (nothing is started).
 */
import { startContainerInfra } from '../src/containers';
import { TEST_ENDPOINTS_ENV } from '../src/endpoints';
import { type InfraHandle, startInfra } from '../src/infra';

export const HANDLE_KEY = '__decorTestInfra';

export default async function globalSetup(): Promise<void> {
  // Test processes may use the published and short test secrets (services/kit config.ts): the workers
  // and every process they start with this environment inherit the switch; nothing else sets it.
  process.env.DECOR_ALLOW_DEV_SECRETS = '1';
  if (process.env[TEST_ENDPOINTS_ENV]) return;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const started = Date.now();
  process.stderr.write('\n');
  let handle: InfraHandle | undefined;
  if (process.env.DECOR_INFRA === 'containers') handle = await startContainerInfra(log);
  handle ??= await startInfra({ mode: 'test', log });
  process.env[TEST_ENDPOINTS_ENV] = JSON.stringify(handle.endpoints);
  (globalThis as Record<string, unknown>)[HANDLE_KEY] = handle;
  log(`test infrastructure ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
