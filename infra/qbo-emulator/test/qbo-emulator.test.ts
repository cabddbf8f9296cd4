/**
 * The QuickBooks emulator's OAuth 2.0 side, driven by intuit-oauth as a client: the consent page,
 * the code exchange, refresh rotation, revocation and the errors of notes §1; the 401 fault of
 * an expired access token; the control API. Each describe works in a company of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OAuthClient from 'intuit-oauth';
import { QBO_DEV_CLIENT, startQboEmulator } from '../src';
import { testEndpoints } from './endpoints';

const { qbo } = testEndpoints();
const redirectUri = 'http://127.0.0.1:9/callback';
const basic = (id = qbo.clientId, secret = qbo.clientSecret) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

OAuthClient.retryConfig.maxRetries = 0;

function client(): OAuthClient {
  const c = new OAuthClient({
    clientId: qbo.clientId,
    clientSecret: qbo.clientSecret,
    environment: 'sandbox',
    redirectUri,
  });
  c.setAuthorizeURLs({
    authorizeEndpoint: `${qbo.url}/connect/oauth2`,
    tokenEndpoint: `${qbo.url}/oauth2/v1/tokens/bearer`,
    revokeEndpoint: `${qbo.url}/v2/oauth2/tokens/revoke`,
    userInfoEndpoint: `${qbo.url}/v1/openid_connect/userinfo`,
  });
  return c;
}

async function newCompany(name: string): Promise<string> {
  const res = await fetch(`${qbo.url}/__emulator/companies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { realmId: string }).realmId;
}

/** Submits the consent form for a realm; returns the redirect's Location. */
async function consent(realmId: string, state: string): Promise<string> {
  const res = await fetch(`${qbo.url}/connect/oauth2/consent`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: qbo.clientId,
      redirect_uri: redirectUri,
      state,
      scope: 'com.intuit.quickbooks.accounting',
      realmId,
    }).toString(),
  });
  expect(res.status).toBe(302);
  return res.headers.get('location') ?? '';
}

const tokenRequest = (body: Record<string, string>, authorization = basic()) =>
  fetch(`${qbo.url}/oauth2/v1/tokens/bearer`, {
    method: 'POST',
    headers: {
      authorization,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams(body).toString(),
  });

const companyInfo = (realmId: string, accessToken: string) =>
  fetch(`${qbo.url}/v3/company/${realmId}/companyinfo/${realmId}?minorversion=75`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  });

const stats = async (realmId: string) =>
  (await (await fetch(`${qbo.url}/__emulator/realms/${realmId}/stats`)).json()) as {
    requests: number;
    grants: { authorization_code: number; refresh_token: number };
    documents: Record<string, number>;
  };

describe('OAuth 2.0 round trip', () => {
  let realmId: string;
  beforeAll(async () => {
    realmId = await newCompany('OAuth Round Trip Co');
  });

  test('consent page, code exchange, refresh rotation, used code and revoked token refused', async () => {
    const oauth = client();
    const authorizeUri = oauth.authorizeUri({ scope: [OAuthClient.scopes.Accounting], state: 'state-123' });
    expect(authorizeUri.startsWith(`${qbo.url}/connect/oauth2?`)).toBe(true);
    const page = await fetch(authorizeUri);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Connect Decor Rentals to QuickBooks');
    expect(html).toContain('<select id="realmId" name="realmId">');
    // The demo company is offered first, then the others (this test's among them).
    expect(html.indexOf(qbo.realmId)).toBeLessThan(html.indexOf(realmId));
    expect(html).toContain('action="/connect/oauth2/consent"');

    const location = await consent(realmId, 'state-123');
    const callback = new URL(location);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe('state-123');
    expect(callback.searchParams.get('realmId')).toBe(realmId);
    expect(callback.searchParams.get('code')).toBeTruthy();

    const created = await oauth.createToken(location);
    const token = created.getJson() as Record<string, unknown>;
    expect(token).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      x_refresh_token_expires_in: 8726400,
    });
    expect(typeof token.access_token).toBe('string');
    expect(typeof token.refresh_token).toBe('string');
    expect(oauth.getToken().realmId).toBe(realmId);
    expect((await companyInfo(realmId, String(token.access_token))).status).toBe(200);
    // Bound to its realm: the demo company does not accept it.
    expect((await companyInfo(qbo.realmId, String(token.access_token))).status).toBe(401);

    // The code is single-use.
    const again = await tokenRequest({
      grant_type: 'authorization_code',
      code: String(callback.searchParams.get('code')),
      redirect_uri: redirectUri,
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: 'Token invalid' });

    // Refresh rotates the refresh token; the replaced one still works (24 h grace).
    const refreshed = (await oauth.refresh()).getJson() as Record<string, unknown>;
    expect(refreshed.refresh_token).not.toBe(token.refresh_token);
    expect(refreshed.access_token).not.toBe(token.access_token);
    const old = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: String(token.refresh_token),
    });
    expect(old.status).toBe(200);
    expect(old.headers.get('intuit_tid')).toBeTruthy();
    expect(await old.json()).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect((await companyInfo(realmId, String(refreshed.access_token))).status).toBe(200);

    // Revoking the connection kills every token issued from it.
    await oauth.revoke({ refresh_token: String(refreshed.refresh_token) });
    const revoked = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: String(refreshed.refresh_token),
    });
    expect(revoked.status).toBe(400);
    expect(await revoked.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Incorrect or invalid refresh token',
    });
    expect((await companyInfo(realmId, String(refreshed.access_token))).status).toBe(401);

    expect((await stats(realmId)).grants).toEqual({ authorization_code: 1, refresh_token: 2 });
  });

  test('wrong client secret → 401 invalid_client; unknown grant type → unsupported_grant_type', async () => {
    const res = await tokenRequest(
      { grant_type: 'refresh_token', refresh_token: 'x' },
      basic(qbo.clientId, 'nope'),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid_client' });
    const revoke = await fetch(`${qbo.url}/v2/oauth2/tokens/revoke`, {
      method: 'POST',
      headers: { authorization: basic('someone-else', 'x'), 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'x' }),
    });
    expect(revoke.status).toBe(401);
    const grant = await tokenRequest({ grant_type: 'password', username: 'a' });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toEqual({ error: 'unsupported_grant_type' });
  });

  test('unknown client_id gets a 400 page; Cancel goes back with error=access_denied', async () => {
    const bad = await fetch(
      `${qbo.url}/connect/oauth2?client_id=nobody&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=x&state=s`,
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Invalid client');
    const page = await (
      await fetch(client().authorizeUri({ scope: 'com.intuit.quickbooks.accounting', state: 'st9' }))
    ).text();
    const cancel = /<a href="([^"]+)">Cancel<\/a>/.exec(page)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const url = new URL(cancel);
    expect(`${url.origin}${url.pathname}`).toBe(redirectUri);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('st9');
  });
});

describe('access tokens on the API', () => {
  let realmId: string;
  let tokens: { access_token: string; refresh_token: string };
  beforeAll(async () => {
    realmId = await newCompany('Token Expiry Co');
    const code = new URL(await consent(realmId, 's')).searchParams.get('code') ?? '';
    const res = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    tokens = (await res.json()) as typeof tokens;
  });

  test('an expired access token answers the exact 401 fault; a refresh gets through again', async () => {
    expect((await companyInfo(realmId, tokens.access_token)).status).toBe(200);
    const expire = await fetch(`${qbo.url}/__emulator/realms/${realmId}/expire-access-tokens`, {
      method: 'POST',
    });
    expect(await expire.json()).toEqual({ realmId, expired: 1 });

    const res = await companyInfo(realmId, tokens.access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="Intuit", error="invalid_token"');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      warnings: null,
      intuitObject: null,
      fault: {
        error: [
          {
            message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401',
            code: '3200',
            element: null,
          },
        ],
        type: 'AUTHENTICATION',
      },
      report: null,
      queryResponse: null,
      batchItemResponse: [],
      attachableResponse: [],
      syncErrorResponse: null,
      requestId: null,
      status: null,
      cdcresponse: [],
    });
    expect(String((body.fault as { error: { detail: string }[] }).error[0]?.detail)).toMatch(
      /^Token expired: /,
    );
    expect(typeof body.time).toBe('number');

    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    const next = (await refreshed.json()) as typeof tokens;
    expect((await companyInfo(realmId, next.access_token)).status).toBe(200);
    // No token at all: the same fault.
    expect((await companyInfo(realmId, 'not-a-token')).status).toBe(401);
  });

  test('a shorter access-token lifetime per realm; revoke of the whole realm', async () => {
    const put = await fetch(`${qbo.url}/__emulator/realms/${realmId}/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessTokenTtlSec: 60 }),
    });
    expect(put.status).toBe(200);
    const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    const next = (await refresh.json()) as typeof tokens & { expires_in: number };
    expect(next.expires_in).toBe(60);
    await fetch(`${qbo.url}/__emulator/realms/${realmId}/revoke`, { method: 'POST' });
    expect((await companyInfo(realmId, next.access_token)).status).toBe(401);
    const after = await tokenRequest({ grant_type: 'refresh_token', refresh_token: next.refresh_token });
    expect(after.status).toBe(400);
  });
});

describe('control API and pages', () => {
  test('a demo-seeded company, its records and stats; the read-only page lists them escaped', async () => {
    const res = await fetch(`${qbo.url}/__emulator/companies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Demo <Copy> Co', demo: true }),
    });
    const { realmId } = (await res.json()) as { realmId: string };
    const customers = (await (
      await fetch(`${qbo.url}/__emulator/realms/${realmId}/records/Customer`)
    ).json()) as {
      DisplayName: string;
      FullyQualifiedName: string;
      Job: boolean;
      PrimaryEmailAddr?: { Address: string };
    }[];
    expect(customers.map((c) => c.DisplayName)).toContain('Harbor Lights Events');
    expect(customers.find((c) => c.DisplayName === 'Nina Patel')?.FullyQualifiedName).toBe(
      'Harbor Lights Events:Nina Patel',
    );
    expect(customers.filter((c) => c.Job && c.PrimaryEmailAddr).length).toBeGreaterThanOrEqual(5);
    expect(customers.some((c) => !c.PrimaryEmailAddr)).toBe(true);
    expect(customers.map((c) => c.DisplayName)).not.toContain('Evergreen Weddings');
    const items = (await (await fetch(`${qbo.url}/__emulator/realms/${realmId}/records/item`)).json()) as {
      FullyQualifiedName: string;
      Type: string;
    }[];
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ FullyQualifiedName: 'BARS', Type: 'Category' }),
        expect.objectContaining({ FullyQualifiedName: 'BARS:Bar Front', Type: 'Category' }),
        expect.objectContaining({ Type: 'Service' }),
      ]),
    );
    expect(await stats(realmId)).toMatchObject({
      requests: 0,
      documents: { Customer: customers.length, Item: items.length, Estimate: 0, Invoice: 0 },
    });

    const page = await fetch(`${qbo.url}/?realmId=${realmId}`);
    const html = await page.text();
    expect(html).toContain('<title>QuickBooks emulator</title>');
    expect(html).toContain('Demo &lt;Copy&gt; Co');
    expect(html).toContain('Harbor Lights Events:Nina Patel');
    expect(await (await fetch(`${qbo.url}/`)).text()).toContain('Decor Rentals Demo Co');
    expect((await fetch(`${qbo.url}/__emulator/realms/000/stats`)).status).toBe(404);
  });
});

test('with a data file, companies, records and tokens survive a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'decor-qbo-'));
  const dataFile = join(dir, 'qbo', 'company.json');
  try {
    const first = await startQboEmulator({ port: 0, dataFile, ...QBO_DEV_CLIENT });
    const created = await fetch(`${first.url}/__emulator/companies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept Co', demo: true }),
    });
    const { realmId } = (await created.json()) as { realmId: string };
    await first.close();

    const second = await startQboEmulator({ port: 0, dataFile, ...QBO_DEV_CLIENT });
    const companies = (await (await fetch(`${second.url}/__emulator/companies`)).json()) as {
      name: string;
    }[];
    expect(companies.map((c) => c.name)).toEqual(['Decor Rentals Demo Co', 'Kept Co']);
    const items = (await (
      await fetch(`${second.url}/__emulator/realms/${realmId}/records/Item`)
    ).json()) as unknown[];
    expect(items.length).toBeGreaterThan(5);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
