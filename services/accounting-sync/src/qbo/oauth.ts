/**
 * Intuit's OAuth 2.0 token endpoint (QUICKBOOKS-NOTES §1): Basic client authentication, a
 * form-encoded body, the authorization_code and refresh_token grants.
 */
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
}

export interface OAuthEndpoints {
  QBO_CLIENT_ID: string;
  QBO_CLIENT_SECRET: string;
  QBO_TOKEN_URL: string;
}

/** The token endpoint refused the grant (invalid_grant, invalid_client, …): retrying cannot help. */
export class GrantRefused extends Error {
  constructor(
    readonly error: string,
    readonly status: number,
  ) {
    super(`QuickBooks refused the token request (${status} ${error})`);
    this.name = 'GrantRefused';
  }
}

const basic = (c: OAuthEndpoints) =>
  `Basic ${Buffer.from(`${c.QBO_CLIENT_ID}:${c.QBO_CLIENT_SECRET}`).toString('base64')}`;

async function tokenRequest(c: OAuthEndpoints, form: Record<string, string>): Promise<TokenSet> {
  const res = await fetch(c.QBO_TOKEN_URL, {
    method: 'POST',
    headers: {
      authorization: basic(c),
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    // 4xx is the server's word on this grant; 5xx (or no JSON) is an outage: let the caller retry.
    if (res.status >= 400 && res.status < 500)
      throw new GrantRefused(String(body.error ?? 'unknown'), res.status);
    throw new Error(`QuickBooks token endpoint answered ${res.status}`);
  }
  const now = Date.now();
  const expiresIn = Number(body.expires_in ?? 3600);
  const refreshExpiresIn = Number(body.x_refresh_token_expires_in ?? 8_726_400);
  if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string')
    throw new Error('QuickBooks token endpoint answered without tokens');
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    accessExpiresAt: new Date(now + expiresIn * 1000),
    refreshExpiresAt: new Date(now + refreshExpiresIn * 1000),
  };
}

export function exchangeCode(c: OAuthEndpoints, code: string, redirectUri: string): Promise<TokenSet> {
  return tokenRequest(c, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
}

export function refreshTokens(c: OAuthEndpoints, refreshToken: string): Promise<TokenSet> {
  return tokenRequest(c, { grant_type: 'refresh_token', refresh_token: refreshToken });
}
