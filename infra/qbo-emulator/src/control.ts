/**
 * The control API under /__emulator (plain JSON, no auth) for tests, benchmarks and demos:
 * companies, per-realm settings, injected faults, token expiry/revocation, stats and records.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Ctx, newHang } from './context';
import { DEMO_REALM_ID, demoRecords } from './demo-company';
import { createRecord } from './entities';
import { QboFault } from './faults';
import { ENTITIES, newCompany, newRealmId, type Rec } from './store';

const body = (req: FastifyRequest): Rec =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Rec) : {};

export function registerControl(app: FastifyInstance, ctx: Ctx): void {
  const bad = (reply: FastifyReply, message: string, status = 400) =>
    reply.code(status).send({ error: message });
  const realmOr404 = (req: FastifyRequest, reply: FastifyReply) => {
    const { realmId } = req.params as { realmId: string };
    const company = ctx.company(realmId);
    if (!company) void bad(reply, `no company with realmId ${realmId}`, 404);
    return company;
  };

  app.get('/__emulator/companies', async () =>
    Object.values(ctx.store.state.companies).map((c) => ({ realmId: c.realmId, name: c.name })),
  );

  app.post('/__emulator/companies', async (req, reply) => {
    const b = body(req);
    const name = typeof b.name === 'string' && b.name.trim() ? b.name.trim() : 'Sandbox Company';
    const realmId = newRealmId(ctx.store.state.companies);
    const company = newCompany(realmId, name);
    if (b.demo === true) demoRecords(company);
    ctx.store.state.companies[realmId] = company;
    ctx.store.changed();
    return reply.code(201).send({ realmId, name });
  });

  app.put('/__emulator/realms/:realmId/settings', async (req, reply) => {
    const company = realmOr404(req, reply);
    if (!company) return reply;
    const b = body(req);
    for (const key of ['rateLimitPerMinute', 'accessTokenTtlSec'] as const) {
      if (b[key] === undefined) continue;
      if (b[key] === null) delete company.settings[key];
      else if (typeof b[key] === 'number' && (b[key] as number) > 0) company.settings[key] = b[key] as number;
      else return bad(reply, `${key} must be a positive number (or null for the default)`);
    }
    ctx.store.changed();
    return { realmId: company.realmId, settings: company.settings };
  });

  app.post('/__emulator/realms/:realmId/faults', async (req, reply) => {
    const company = realmOr404(req, reply);
    if (!company) return reply;
    const b = body(req);
    const rt = ctx.runtime(company.realmId);
    if (typeof b.downForSeconds === 'number' && b.downForSeconds > 0) {
      rt.downUntil = Date.now() + b.downForSeconds * 1000;
      return { realmId: company.realmId, downUntil: new Date(rt.downUntil).toISOString() };
    }
    if (typeof b.hangForSeconds === 'number' && b.hangForSeconds > 0) {
      rt.hang?.end();
      const hang = newHang(b.hangForSeconds * 1000);
      rt.hang = hang;
      void hang.over.then(() => {
        if (rt.hang === hang) rt.hang = undefined;
      });
      return { realmId: company.realmId, hangUntil: new Date(hang.until).toISOString() };
    }
    if (
      (b.status === 500 || b.status === 503 || b.status === 429) &&
      Number.isInteger(b.count) &&
      (b.count as number) > 0
    ) {
      rt.fault = { status: b.status, count: b.count as number };
      return { realmId: company.realmId, fault: rt.fault };
    }
    return bad(
      reply,
      'send { status: 500|503|429, count: N }, { downForSeconds: T } or { hangForSeconds: T }',
    );
  });

  app.delete('/__emulator/realms/:realmId/faults', async (req, reply) => {
    const company = realmOr404(req, reply);
    if (!company) return reply;
    const rt = ctx.runtime(company.realmId);
    rt.fault = undefined;
    rt.downUntil = 0;
    rt.hang?.end();
    rt.hang = undefined;
    return { realmId: company.realmId, cleared: true };
  });

  app.post('/__emulator/realms/:realmId/expire-access-tokens', async (req, reply) => {
    const company = realmOr404(req, reply);
    if (!company) return reply;
    const { grants, accessTokens } = ctx.store.state;
    let expired = 0;
    const past = Date.now() - 1;
    for (const t of Object.values(accessTokens)) {
      if (grants[t.grantId]?.realmId === company.realmId && t.expiresAt > past) {
        t.expiresAt = past;
        expired++;
      }
    }
    ctx.store.changed();
    return { realmId: company.realmId, expired };
  });

  app.post('/__emulator/realms/:realmId/revoke', async (req, reply) => {
    const company = realmOr404(req, reply);
    if (!company) return reply;
    let revoked = 0;
    for (const g of Object.values(ctx.store.state.grants)) {
      if (g.realmId === company.realmId && !g.revoked) {
        g.revoked = true;
        revoked++;
      }
    }
    ctx.store.changed();
    return { realmId: company.realmId, revokedGrants: revoked };
  });

  app.get('/__emulator/realms/:realmId/stats', async (req, reply) => {
    const company = realmOr404(req, reply);
    if (!company) return reply;
    const { stats } = ctx.runtime(company.realmId);
    return {
      requests: stats.requests,
      throttled: stats.throttled,
      faulted: stats.faulted,
      replays: stats.replays,
      hung: stats.hung,
      grants: { ...stats.grants },
      documents: ctx.documents(company.realmId),
      requestsPerMinutePeak: stats.requestsPerMinutePeak,
    };
  });

  app.get('/__emulator/realms/:realmId/records/:entity', async (req, reply) => {
    const company = realmOr404(req, reply);
    if (!company) return reply;
    const { entity: segment } = req.params as { entity: string };
    const entity = ENTITIES.find((e) => e.toLowerCase() === segment.toLowerCase());
    if (!entity) return bad(reply, `entity must be one of ${ENTITIES.join(', ')}`, 404);
    return Object.values(company.records[entity]).sort((a, b) => Number(a.Id) - Number(b.Id));
  });

  // Many records at once, by the API's own rules (ids, names, parents), without the rate limit: the
  // import benchmark's 5,000 Customers, or a change "made in QuickBooks by someone else" in a test.
  app.post('/__emulator/realms/:realmId/records/:entity', async (req, reply) => {
    const company = realmOr404(req, reply);
    if (!company) return reply;
    const { entity: segment } = req.params as { entity: string };
    const entity = ENTITIES.find((e) => e.toLowerCase() === segment.toLowerCase());
    if (!entity) return bad(reply, `entity must be one of ${ENTITIES.join(', ')}`, 404);
    const records = body(req).records;
    if (!Array.isArray(records) || records.length > 10_000)
      return bad(reply, 'send { records: [ ... ] } (at most 10,000)');
    const ids: string[] = [];
    try {
      for (const rec of records) ids.push(String(createRecord(company, entity, rec as Rec).Id));
    } catch (err) {
      if (!(err instanceof QboFault)) throw err;
      return bad(
        reply,
        `record ${ids.length + 1}: ${err.message} (the ${ids.length} before it were created)`,
      );
    } finally {
      ctx.store.changed();
    }
    return reply.code(201).send({ realmId: company.realmId, ids });
  });

  app.get('/__emulator', async () => ({ demoRealmId: DEMO_REALM_ID }));
}
