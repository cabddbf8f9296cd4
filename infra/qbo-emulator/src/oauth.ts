/**
 * Intuit OAuth 2.0 (notes §1): the authorize (consent) page, the token endpoint with the
 * authorization_code and refresh_token grants (refresh tokens rotate; a replaced one keeps
 * working for 24 h), and revoke.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from './context';
import { DEMO_REALM_ID } from './demo-company';
import { consentPage, errorPage } from './page';
import { type Grant, randomToken } from './store';

const CODE_TTL_MS = 5 * 60_000;
const SUPERSEDED_GRACE_MS = 24 * 3_600_000;
const HARD_CAP_SEC = 5 * 365 * 86_400;

export const tid = () =>
  randomBytes(16)
    .toString('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');

type Form = Record<string, string | undefined>;
const form = (req: FastifyRequest): Form =>
  req.body && typeof req.body === 'object' ? (req.body as Form) : {};

/** The client of a Basic Authorization header, or undefined when it is not ours. */
function basicClient(ctx: Ctx, req: FastifyRequest): string | undefined {
  const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  return colon > 0 && id === ctx.opts.clientId && secret === ctx.opts.clientSecret ? id : undefined;
}

function oauthError(reply: FastifyReply, status: number, error: string, description?: string) {
  return reply
    .code(status)
    .header('intuit_tid', tid())
    .header('cache-control', 'no-store')
    .type('application/json;charset=utf-8')
    .send({ error, ...(description ? { error_description: description } : {}) });
}

/** An access + refresh token pair for a grant. */
function issue(ctx: Ctx, grant: Grant, req: FastifyRequest) {
  const now = Date.now();
  const accessTtl = ctx.accessTtlSec(grant.realmId);
  const refreshTtl = Math.min(
    ctx.refreshTtlSec(),
    Math.floor((grant.createdAt + HARD_CAP_SEC * 1000 - now) / 1000),
  );
  const access = `eyJlbmMiOiJBMTI4Q0JDLUhTMjU2IiwiYWxnIjoiZGlyIn0..${randomToken(48)}`;
  const refresh = `RT1-${randomToken(6)}-H0-${Math.floor(now / 1000) + refreshTtl}${randomToken(18)}`;
  const { accessTokens, refreshTokens } = ctx.store.state;
  accessTokens[access] = { grantId: grant.id, expiresAt: now + accessTtl * 1000 };
  refreshTokens[refresh] = { grantId: grant.id, expiresAt: now + refreshTtl * 1000 };
  ctx.store.changed();
  const hard = req.headers['x-include-refresh-token-hard-expires-in'] === 'true';
  return {
    token_type: 'bearer',
    access_token: access,
    refresh_token: refresh,
    expires_in: accessTtl,
    x_refresh_token_expires_in: refreshTtl,
    ...(hard
      ? { x_refresh_token_hard_expires_in: Math.floor((grant.createdAt + HARD_CAP_SEC * 1000 - now) / 1000) }
      : {}),
  };
}

export function registerOAuth(app: FastifyInstance, ctx: Ctx): void {
  const companies = () => {
    const all = Object.values(ctx.store.state.companies);
    // The demo company first, the others in creation order.
    return all.sort((a, b) => (a.realmId === DEMO_REALM_ID ? -1 : b.realmId === DEMO_REALM_ID ? 1 : 0));
  };

  app.get('/connect/oauth2', async (req, reply) => {
    const q = req.query as Form;
    const page = (status: number, title: string, detail: string) =>
      reply.code(status).type('text/html; charset=utf-8').send(errorPage(title, detail));
    if (q.client_id !== ctx.opts.clientId)
      return page(400, 'Invalid client', `Unknown client_id '${q.client_id ?? ''}'.`);
    if (q.response_type !== 'code') return page(400, 'Invalid request', "response_type must be 'code'.");
    if (!q.redirect_uri || !URL.canParse(q.redirect_uri)) {
      return page(400, 'Invalid request', 'redirect_uri is missing or not an absolute URL.');
    }
    if (!q.scope) return page(400, 'Invalid request', 'scope is missing.');
    const params = {
      clientId: q.client_id,
      redirectUri: q.redirect_uri,
      state: q.state ?? '',
      scope: q.scope,
    };
    return reply.type('text/html; charset=utf-8').send(consentPage(params, companies()));
  });

  app.post('/connect/oauth2/consent', async (req, reply) => {
    const f = form(req);
    const page = (title: string, detail: string) =>
      reply.code(400).type('text/html; charset=utf-8').send(errorPage(title, detail));
    if (f.client_id !== ctx.opts.clientId)
      return page('Invalid client', `Unknown client_id '${f.client_id ?? ''}'.`);
    if (!f.redirect_uri || !URL.canParse(f.redirect_uri))
      return page('Invalid request', 'redirect_uri is missing.');
    if (!f.realmId || !ctx.company(f.realmId)) return page('Invalid request', 'Choose one of the companies.');
    const code = `AB1${randomToken(36)}`;
    ctx.codes.set(code, {
      clientId: f.client_id,
      realmId: f.realmId,
      redirectUri: f.redirect_uri,
      scope: f.scope ?? '',
      expiresAt: Date.now() + CODE_TTL_MS,
      used: false,
    });
    const target = new URL(f.redirect_uri);
    target.searchParams.set('code', code);
    if (f.state) target.searchParams.set('state', f.state);
    target.searchParams.set('realmId', f.realmId);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/oauth2/v1/tokens/bearer', async (req, reply) => {
    const clientId = basicClient(ctx, req);
    if (!clientId) return oauthError(reply, 401, 'invalid_client');
    const f = form(req);
    const { grants, refreshTokens } = ctx.store.state;
    const now = Date.now();
    if (f.grant_type === 'authorization_code') {
      if (!f.code || !f.redirect_uri) return oauthError(reply, 400, 'invalid_request');
      const code = ctx.codes.get(f.code);
      if (
        !code ||
        code.used ||
        code.expiresAt < now ||
        code.clientId !== clientId ||
        code.redirectUri !== f.redirect_uri
      ) {
        return oauthError(reply, 400, 'invalid_grant', 'Token invalid');
      }
      code.used = true;
      const grant: Grant = {
        id: randomToken(12),
        clientId,
        realmId: code.realmId,
        scope: code.scope,
        createdAt: now,
        revoked: false,
      };
      grants[grant.id] = grant;
      ctx.runtime(grant.realmId).stats.grants.authorization_code++;
      return reply
        .header('intuit_tid', tid())
        .header('cache-control', 'no-store')
        .send(issue(ctx, grant, req));
    }
    if (f.grant_type === 'refresh_token') {
      if (!f.refresh_token) return oauthError(reply, 400, 'invalid_request');
      const token = refreshTokens[f.refresh_token];
      const grant = token && grants[token.grantId];
      const alive =
        token &&
        grant &&
        !grant.revoked &&
        grant.clientId === clientId &&
        token.expiresAt > now &&
        (token.supersededAt === undefined || token.supersededAt + SUPERSEDED_GRACE_MS > now);
      if (!alive) return oauthError(reply, 400, 'invalid_grant', 'Incorrect or invalid refresh token');
      token.supersededAt ??= now;
      ctx.runtime(grant.realmId).stats.grants.refresh_token++;
      return reply
        .header('intuit_tid', tid())
        .header('cache-control', 'no-store')
        .send(issue(ctx, grant, req));
    }
    return oauthError(reply, 400, f.grant_type ? 'unsupported_grant_type' : 'invalid_request');
  });

  app.post('/v2/oauth2/tokens/revoke', async (req, reply) => {
    const clientId = basicClient(ctx, req);
    if (!clientId) return oauthError(reply, 401, 'invalid_client');
    const token = form(req).token;
    if (!token) return oauthError(reply, 400, 'invalid_request');
    const { grants, accessTokens, refreshTokens } = ctx.store.state;
    const grantId = (refreshTokens[token] ?? accessTokens[token])?.grantId;
    const grant = grantId ? grants[grantId] : undefined;
    // Revoking any token of a connection disconnects it: every token issued from that consent dies.
    if (grant && grant.clientId === clientId) {
      grant.revoked = true;
      ctx.store.changed();
    }
    return reply.code(200).header('intuit_tid', tid()).send('');
  });
}
