/**
 * The start of the QuickBooks connection, shared by the user service (staff sign-in answers the
 * authorize URL when the company is not connected) and the accounting-sync service (its Connect
 * button, and the callback that checks the state). The `state` is signed with the services' shared
 * JWT secret and names the staff member it was issued to; the accounting-sync service accepts each
 * state once, before it expires. Servers only (node:crypto): not in the browsers' `rules` entry; its
 * env schema (qboConnectConfigSchema) is the kit's configuration.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Intuit's scope for the Accounting API. */
export const QBO_SCOPE = 'com.intuit.quickbooks.accounting';
export const CONNECT_STATE_TTL_MS = 10 * 60_000;

export interface ConnectConfig {
  QBO_CLIENT_ID: string;
  QBO_AUTHORIZE_URL: string;
  QBO_REDIRECT_URI?: string;
  PUBLIC_BASE_URL: string;
}

export function redirectUri(config: ConnectConfig): string {
  return config.QBO_REDIRECT_URI ?? `${config.PUBLIC_BASE_URL.replace(/\/$/, '')}/callback`;
}

/** The authorize URL with its parameters sorted, as Intuit's own client builds it. */
export function qboAuthorizeUrl(config: ConnectConfig, state: string): string {
  const params = new URLSearchParams(
    Object.entries({
      client_id: config.QBO_CLIENT_ID,
      redirect_uri: redirectUri(config),
      response_type: 'code',
      scope: QBO_SCOPE,
      state,
    }).sort(([a], [b]) => a.localeCompare(b)),
  );
  return `${config.QBO_AUTHORIZE_URL}?${params.toString().replace(/\+/g, '%20')}`;
}

const sign = (secret: string, body: string) =>
  createHmac('sha256', `qbo-connect-state:${secret}`).update(body).digest('base64url');

/** A one-use, short-lived state bound to the staff member `userId`. */
export function signConnectState(secret: string, userId: string, now = Date.now()): string {
  const body = Buffer.from(
    JSON.stringify({ u: userId, n: randomBytes(12).toString('base64url'), e: now + CONNECT_STATE_TTL_MS }),
  ).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

export type ConnectStateCheck =
  | { ok: true; userId: string; nonce: string; expiresAt: number }
  | { ok: false; reason: 'malformed' | 'forged' | 'expired' };

/** Checks signature and expiry only; the caller records the nonce to refuse a replay. */
export function verifyConnectState(secret: string, state: string, now = Date.now()): ConnectStateCheck {
  const [body, mac, extra] = state.split('.');
  if (!body || !mac || extra !== undefined) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: 'forged' };
  let claims: { u?: unknown; n?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof claims.u !== 'string' || typeof claims.n !== 'string' || typeof claims.e !== 'number')
    return { ok: false, reason: 'malformed' };
  if (claims.e <= now) return { ok: false, reason: 'expired' };
  return { ok: true, userId: claims.u, nonce: claims.n, expiresAt: claims.e };
}
