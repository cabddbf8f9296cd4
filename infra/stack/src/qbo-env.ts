import type { InfraEndpoints } from './endpoints';

/**
 * The QuickBooks client settings for the services: the local emulator's, except for each variable
 * already set in the environment (set them all to use the real Intuit sandbox instead).
 */
export function qboEnv(e: InfraEndpoints, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const emulator: Record<string, string> = {
    QBO_CLIENT_ID: e.qbo.clientId,
    QBO_CLIENT_SECRET: e.qbo.clientSecret,
    QBO_AUTHORIZE_URL: `${e.qbo.url}/connect/oauth2`,
    QBO_TOKEN_URL: `${e.qbo.url}/oauth2/v1/tokens/bearer`,
    QBO_REVOKE_URL: `${e.qbo.url}/v2/oauth2/tokens/revoke`,
    QBO_API_BASE_URL: `${e.qbo.url}/v3/company/`,
  };
  return Object.fromEntries(Object.entries(emulator).map(([k, v]) => [k, env[k] || v]));
}
