/**
 * The Accounting API v3 under /v3/company/:realmId (notes §2–§4), each call passing, in order:
 * injected faults (control API: 5xx/429, down, hang), the per-realm throttle, the bearer token, the
 * requestid replay.
 *
 * Throttle: a sliding 60 s window per realm of the requests let through; a request refused by an
 * injected fault or by the throttle itself is not counted in the window (Intuit does not say; this
 * way a client that backs off after a 429 gets through again once the window slides), but every
 * request counts in the stats.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from './context';
import {
  companyInfo,
  createRecord,
  deleteRecord,
  getRecord,
  markSent,
  sendAddress,
  updateRecord,
  voidRecord,
} from './entities';
import { authenticationFailedBody, faults, QboFault } from './faults';
import { mailDocument } from './mail';
import { tid } from './oauth';
import { parseQuery, runQuery } from './query';
import {
  type CompanyState,
  ENTITIES,
  type EntityName,
  MAX_REPLAYS_PER_REALM,
  qboTime,
  type Rec,
} from './store';

const JSON_TYPE = 'application/json;charset=utf-8';
const WINDOW_MS = 60_000;

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** Query parameters from the raw URL: `+` is a space only where asked (sendTo keeps a raw `+`). */
export function rawParam(url: string, name: string, plusIsSpace = true): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (safeDecode(key, true).toLowerCase() !== name.toLowerCase()) continue;
    return safeDecode(eq < 0 ? '' : pair.slice(eq + 1), plusIsSpace);
  }
  return undefined;
}

function safeDecode(s: string, plusIsSpace: boolean): string {
  const t = plusIsSpace ? s.replace(/\+/g, ' ') : s;
  try {
    return decodeURIComponent(t);
  } catch {
    return t;
  }
}

const entityOf = (segment: string): EntityName | undefined =>
  ENTITIES.find((e) => e.toLowerCase() === segment.toLowerCase());

const faultAnswer = (f: QboFault): Answer => ({
  status: f.status,
  body: JSON.stringify({ Fault: { Error: [f.error], type: f.type }, time: qboTime(new Date(), true) }),
  headers: f.headers,
});

const ok = (key: string, value: unknown): Answer => ({
  status: 200,
  body: JSON.stringify({ [key]: value, time: qboTime(new Date(), true) }),
});

type Handler = (company: CompanyState, req: FastifyRequest) => Promise<Answer> | Answer;

export function registerApi(app: FastifyInstance, ctx: Ctx): void {
  const send = (reply: FastifyReply, a: Answer) => {
    reply.code(a.status).header('intuit_tid', tid()).type(JSON_TYPE);
    for (const [k, v] of Object.entries(a.headers ?? {})) reply.header(k, v);
    return reply.send(a.body);
  };

  /** Faults, throttle, auth and replay around one API call. */
  const handle = async (handler: Handler, req: FastifyRequest, reply: FastifyReply) => {
    const { realmId } = req.params as { realmId: string };
    const rt = ctx.runtime(realmId);
    rt.stats.requests++;
    const now = Date.now();
    if (rt.downUntil > now) {
      rt.stats.faulted++;
      return send(reply, faultAnswer(faults.system(503)));
    }
    if (rt.fault && rt.fault.count > 0) {
      rt.fault.count--;
      const status = rt.fault.status;
      if (rt.fault.count === 0) rt.fault = undefined;
      rt.stats.faulted++;
      return send(reply, faultAnswer(status === 429 ? faults.throttled(60) : faults.system(status)));
    }
    while (rt.window.length > 0 && (rt.window[0] as number) <= now - WINDOW_MS) rt.window.shift();
    if (rt.window.length >= ctx.rateLimit(realmId)) {
      rt.stats.throttled++;
      const retryAfter = Math.max(1, Math.ceil(((rt.window[0] as number) + WINDOW_MS - now) / 1000));
      return send(reply, faultAnswer(faults.throttled(retryAfter)));
    }
    rt.window.push(now);
    rt.stats.requestsPerMinutePeak = Math.max(rt.stats.requestsPerMinutePeak, rt.window.length);

    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? ctx.store.state.accessTokens[bearer] : undefined;
    const grant = token ? ctx.store.state.grants[token.grantId] : undefined;
    const company = ctx.company(realmId);
    if (
      !token ||
      !grant ||
      grant.revoked ||
      grant.realmId !== realmId ||
      !company ||
      token.expiresAt <= now
    ) {
      const detail =
        token && token.expiresAt <= now ? `Token expired: ${bearer?.slice(0, 20)}…` : 'Token invalid';
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="Intuit", error="invalid_token"')
        .header('intuit_tid', tid())
        .type(JSON_TYPE)
        .send(JSON.stringify(authenticationFailedBody(detail)));
    }

    const requestId = rawParam(req.url, 'requestid');
    if (requestId !== undefined && requestId.length > 50) {
      return send(
        reply,
        faultAnswer(
          new QboFault(400, 'ValidationFault', {
            Message: 'String length is either shorter or longer than supported by specification',
            Detail: 'requestid must be at most 50 characters',
            code: '2050',
            element: 'requestid',
          }),
        ),
      );
    }
    const replay = requestId ? company.replays[requestId] : undefined;
    if (replay) {
      rt.stats.replays++;
      return send(reply, { status: replay.status, body: String(replay.body) });
    }
    let answer: Answer;
    try {
      answer = await handler(company, req);
    } catch (err) {
      if (!(err instanceof QboFault)) throw err;
      answer = faultAnswer(err);
    }
    if (requestId) {
      company.replays[requestId] = { status: answer.status, body: answer.body };
      const keys = Object.keys(company.replays);
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_REPLAYS_PER_REALM)))
        delete company.replays[k];
    }
    if (req.method !== 'GET' || requestId) ctx.store.changed();
    return send(reply, answer);
  };

  /**
   * A hang fault holds each request, unanswered, until the hang is over; then the held requests are
   * carried out one at a time in arrival order, even those whose client gave up meanwhile (the worst
   * case for a client: a server that finishes work it was never able to answer).
   */
  const call = (handler: Handler) => async (req: FastifyRequest, reply: FastifyReply) => {
    const { realmId } = req.params as { realmId: string };
    const rt = ctx.runtime(realmId);
    const hang = rt.hang;
    if (!hang) return handle(handler, req, reply);
    rt.stats.hung++;
    const before = rt.held;
    let done = () => {};
    rt.held = new Promise<void>((resolve) => {
      done = resolve;
    });
    await hang.over;
    await before;
    try {
      return await handle(handler, req, reply);
    } finally {
      done();
    }
  };

  const base = '/v3/company/:realmId';

  app.get(
    `${base}/companyinfo/:id`,
    call((company, req) => {
      const { id } = req.params as { id: string };
      if (id !== company.realmId) throw faults.notFound('CompanyInfo', id);
      return ok('CompanyInfo', companyInfo(company));
    }),
  );

  app.get(
    `${base}/query`,
    call((company, req) => {
      const text = rawParam(req.url, 'query');
      if (!text?.trim()) throw faults.queryParse('Encountered "<EOF>": the query is empty');
      const q = parseQuery(text);
      const rows =
        q.entity === 'CompanyInfo' ? [companyInfo(company)] : Object.values(company.records[q.entity]);
      return ok('QueryResponse', runQuery(q, rows));
    }),
  );

  app.get(
    `${base}/:entity/:id`,
    call((company, req) => {
      const { entity: segment, id } = req.params as { entity: string; id: string };
      const entity = entityOf(segment);
      if (!entity) throw faults.unsupported(`GET ${segment}`);
      return ok(entity, getRecord(company, entity, id));
    }),
  );

  app.post(
    `${base}/:entity`,
    call((company, req) => {
      const { entity: segment } = req.params as { entity: string };
      const entity = entityOf(segment);
      if (!entity) throw faults.unsupported(`POST ${segment}`);
      const body = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw faults.badJson('the request body is not a JSON object');
      }
      const rec = body as Rec;
      const operation = rawParam(req.url, 'operation')?.toLowerCase();
      const allowDuplicateDocNum = rawParam(req.url, 'include')?.toLowerCase() === 'allowduplicatedocnum';
      switch (operation) {
        case 'delete':
          return ok(entity, deleteRecord(company, entity, rec));
        case 'void':
          return ok(entity, voidRecord(company, entity, rec));
        case 'update':
          return ok(entity, updateRecord(company, entity, rec, { allowDuplicateDocNum }));
        case undefined:
        case '':
          return ok(
            entity,
            rec.Id !== undefined
              ? updateRecord(company, entity, rec, { allowDuplicateDocNum })
              : createRecord(company, entity, rec, { allowDuplicateDocNum }),
          );
        default:
          throw faults.unsupported(operation);
      }
    }),
  );

  app.post(
    `${base}/:entity/:id/send`,
    call(async (company, req) => {
      const { entity: segment, id } = req.params as { entity: string; id: string };
      const entity = entityOf(segment);
      if (entity !== 'Estimate' && entity !== 'Invoice') throw faults.unsupported(`send ${segment}`);
      const doc = getRecord(company, entity, id);
      const sendTo = rawParam(req.url, 'sendTo', false);
      const address = sendAddress(company, doc, sendTo);
      markSent(doc, address);
      if (ctx.mailer) {
        await mailDocument(ctx.mailer, company, entity, doc, address).catch((err: Error) =>
          req.log.warn({ err }, 'the emulator could not deliver the e-mail'),
        );
      }
      return ok(entity, doc);
    }),
  );

  /** Any other /v3 path: Intuit answers unknown resources with a validation fault. */
  app.all(
    `${base}/*`,
    call((_company, req) => {
      throw faults.unsupported(`${req.method} ${req.url.split('?')[0]}`);
    }),
  );
}
