import { type EventEnvelope, PERMISSIONS, UserDeleted, UserEnabled, UserSuspended } from '@decor/contracts';
import {
  badRequest,
  conflict,
  forbidden,
  type ListSpec,
  listQuerySchema,
  newEvent,
  notFound,
  objectId,
  objectIdParam,
  type ServiceApp,
  type SessionUser,
  sendList,
  toMongoList,
} from '@decor/kit';
import { Type } from '@sinclair/typebox';
import { isValidObjectId } from 'mongoose';
import type { UserContext } from '../context';
import {
  MESSAGES,
  mayManage,
  type NewUserInput,
  newUserProblem,
  present,
  requiredMessage,
  sendsWelcome,
  trimmed,
} from '../domain/admin-rules';
import { normaliseEmail } from '../domain/user';
import type { Company } from '../store/company-model';
import { endSessions } from '../store/sessions';
import { derivedKeys, newUserWithEvent, publicUser, type User, userUpdatedEvent } from '../store/user-model';
import { changeDocument, isDuplicateKey } from '../store/writes';
import { UserView } from './schemas';
import { welcomeRequest } from './welcome';

/** Case-insensitive prefix search and sort go through lower-case copies, so indexes serve them. */
export const USER_LIST: ListSpec = {
  orderFields: ['ownCompany', 'displayName', 'email', 'createdAt'],
  defaultOrder: 'createdAt:DESC',
  likeFields: ['ownCompany', 'displayName', 'email'],
  filters: {
    permissions: Type.Array(Type.Union(PERMISSIONS.map((p) => Type.Literal(p))), {
      maxItems: 3,
      'x-message': `must be one of: ${PERMISSIONS.join(', ')}`,
    }),
    CompanyId: objectId(),
    active: Type.Boolean(),
  },
  paths: { ownCompany: 'ownCompanyKey', displayName: 'displayNameKey' },
};

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The kit's list query, with the prefix match on the lower-case copy (an anchored, case-sensitive
 * regex, which an index serves; the kit's case-insensitive one cannot use it) and tombstones left out.
 */
export function listFilter(query: Record<string, unknown>, spec: ListSpec) {
  const list = toMongoList(query, spec);
  if (typeof query.like === 'string') {
    const at = query.like.indexOf(':');
    const field = query.like.slice(0, at);
    const path = spec.paths?.[field] ?? field;
    list.filter[path] = { $regex: `^${escapeRegex(query.like.slice(at + 1).toLowerCase())}` };
  }
  list.filter.deletedAt = null;
  return list;
}

const Text = (max = 200) => Type.String({ maxLength: max });
const EmailField = Type.String({ format: 'email', maxLength: 254, 'x-message': MESSAGES.invalidEmail });

const NewUserBody = Type.Object(
  {
    permissions: Type.Union([Type.Literal('customer'), Type.Literal('admin')], {
      'x-message': "must be 'customer' or 'admin'",
    }),
    email: EmailField,
    firstName: Type.Optional(Text()),
    lastName: Type.Optional(Text()),
    displayName: Type.Optional(Text()),
    phone: Type.Optional(Type.Union([Text(50), Type.Null()])),
    ownCompany: Type.Optional(Text()),
    CompanyId: Type.Optional(Type.String({ maxLength: 50 })),
    qboId: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    sendWelcomeEmail: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** PUT /user/{id} fields other than the password (Suspend / Enable and the profile). */
export const UserChangeFields = {
  active: Type.Optional(Type.Boolean()),
  firstName: Type.Optional(Text()),
  lastName: Type.Optional(Text()),
  displayName: Type.Optional(Text()),
  phone: Type.Optional(Type.Union([Text(50), Type.Null()])),
  email: Type.Optional(EmailField),
  ownCompany: Type.Optional(Text()),
  CompanyId: Type.Optional(Type.String({ maxLength: 50 })),
};
export type UserChanges = {
  active?: boolean;
  firstName?: string;
  lastName?: string;
  displayName?: string;
  phone?: string | null;
  email?: string;
  ownCompany?: string;
  CompanyId?: string;
};

/** A deletion's mark older than this was left by a process that died mid-way: it no longer counts. */
const DELETING_STALE_MS = 30_000;
export const notBeingDeleted = () => ({
  $or: [{ deleting: null }, { deleting: { $lt: new Date(Date.now() - DELETING_STALE_MS) } }],
});

/** A live company a customer may belong to (not deleted, not being deleted). */
export async function liveCompany(ctx: UserContext, id: string | undefined): Promise<Company | null> {
  if (!id || !isValidObjectId(id)) return null;
  return ctx.companies.findOne({ _id: id, deletedAt: null, ...notBeingDeleted() }).lean<Company>();
}

const liveUser = (ctx: UserContext, id: string) =>
  ctx.users.findOne({ _id: id, deletedAt: null }).lean<User>();

/** Staff change a user's state or profile (PUT /user/{id} without a password). */
export async function changeUser(
  ctx: UserContext,
  actor: SessionUser,
  id: string,
  body: UserChanges,
  correlationId: string,
): Promise<User> {
  const changes = trimmed(body);
  if (Object.keys(changes).length === 0) throw badRequest(MESSAGES.nothingToChange);
  const target = await liveUser(ctx, id);
  if (!target) throw notFound(MESSAGES.userNotFound);
  if (!mayManage(actor.permissions, target.permissions)) throw forbidden(MESSAGES.onlySuperadmin);
  if (changes.active === false && actor.id === id) throw conflict(MESSAGES.notYourself);
  for (const field of ['firstName', 'lastName', 'email'] as const) {
    if (changes[field] !== undefined && !present(changes[field])) throw badRequest(requiredMessage(field));
  }
  if (changes.email !== undefined) changes.email = normaliseEmail(changes.email);
  // An empty phone clears it (a customer's stays required).
  if (changes.phone === '') changes.phone = null;
  if (changes.phone === null && target.permissions === 'customer') throw badRequest(requiredMessage('phone'));
  const companyFields = changes.CompanyId !== undefined || changes.ownCompany !== undefined;
  if (companyFields && target.permissions !== 'customer') throw badRequest(MESSAGES.customerFieldsOnly);
  if (changes.CompanyId !== undefined && !(await liveCompany(ctx, changes.CompanyId)))
    throw badRequest(MESSAGES.selectParentCompany);

  let updated: User | null;
  try {
    updated = await changeDocument<User>(
      ctx.users,
      id,
      () => liveUser(ctx, id),
      (current) => {
        const next: User = { ...current, ...changes } as User;
        const changed = (Object.keys(changes) as (keyof UserChanges)[]).filter(
          (k) => (current[k] ?? null) !== (next[k] ?? null),
        );
        if (changed.length === 0) return null;
        const at = new Date().toISOString();
        const events: EventEnvelope[] = [userUpdatedEvent(next, correlationId)];
        const set: Record<string, unknown> = { ...changes, ...derivedKeys(next) };
        if (changed.includes('active')) {
          const contract = next.active ? UserEnabled : UserSuspended;
          events.push(
            newEvent(contract, {
              aggregateId: id,
              correlationId,
              payload: { userId: id, email: next.email, at },
            }),
          );
          // A suspension ends the sessions for good: after an Enable only new sign-ins work.
          if (!next.active) {
            const ended = endSessions(current, 'suspended', correlationId, new Date(at));
            set.sessionVersion = ended.sessionVersion;
            events.push(ended.event);
          }
        }
        return { set, events };
      },
    );
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict(MESSAGES.emailTaken);
    throw err;
  }
  if (!updated) throw notFound(MESSAGES.userNotFound);
  // Suspension must reach every gateway quickly: wait until the events are on Kafka.
  await ctx.eventsPublished();
  return updated;
}

/** Deletes an account for good: a tombstone (its e-mail freed, its personal fields cleared) with UserDeleted. */
export async function deleteUser(
  ctx: UserContext,
  id: string,
  correlationId: string,
  check: (target: User) => void = () => {},
): Promise<boolean> {
  const done = await changeDocument<User>(
    ctx.users,
    id,
    () => liveUser(ctx, id),
    (current) => {
      check(current);
      const at = new Date().toISOString();
      const event = newEvent(UserDeleted, {
        aggregateId: id,
        correlationId,
        payload: {
          userId: id,
          email: current.email,
          permissions: current.permissions,
          at,
          ...(current.qboId ? { qboId: current.qboId } : {}),
        },
      });
      const ended = endSessions(current, 'deleted', correlationId, new Date(at));
      return {
        set: {
          sessionVersion: ended.sessionVersion,
          deletedAt: new Date(at),
          active: false,
          email: `deleted.${id}@deleted.invalid`,
          firstName: '',
          lastName: '',
          displayName: '',
          displayNameKey: '',
          phone: null,
          passwordHash: null,
          passwordReset: null,
        },
        events: [event, ended.event],
      };
    },
  );
  return !!done;
}

export async function adminUserRoutes(app: ServiceApp, ctx: UserContext): Promise<void> {
  const staffOnly = app.requireRole('staff');

  app.get(
    '/user',
    {
      onRequest: staffOnly,
      schema: {
        summary: 'Staff: users, 20 at a time; total in total_count',
        description:
          'permissions (repeat for any of), CompanyId, active; like=<ownCompany|displayName|email>:<prefix> ' +
          '(case-insensitive); order=<ownCompany|displayName|email|createdAt>:<ASC|DESC> (default createdAt:DESC); ' +
          'limit (20, max 100), offset.',
        security: [{ session: [] }],
        querystring: listQuerySchema(USER_LIST),
        response: { 200: Type.Object({ result: Type.Array(UserView) }) },
      },
    },
    async (request, reply) => {
      const list = listFilter(request.query as Record<string, unknown>, USER_LIST);
      const page = await ctx.roster.page(list);
      if (page) {
        // Only the page's rows are read, by _id alone (mongo-java-server scans every document when
        // the query names another field too); one deleted since the roster was made is left out.
        const rows = await ctx.users.find({ _id: { $in: page.ids } }).lean<User[]>();
        const byId = new Map(rows.filter((u) => !u.deletedAt).map((u) => [u._id.toString(), u]));
        const items = page.ids.flatMap((id) => byId.get(id) ?? []);
        return sendList(reply, items.map(publicUser), page.total);
      }
      const { filter, sort, skip, limit } = list;
      const [items, total] = await Promise.all([
        ctx.users.find(filter).sort(sort).skip(skip).limit(limit).lean<User[]>(),
        ctx.users.countDocuments(filter),
      ]);
      return sendList(reply, items.map(publicUser), total);
    },
  );

  app.post(
    '/user',
    {
      onRequest: staffOnly,
      schema: {
        summary:
          'Staff: create a customer under an existing company, or (superadmins) an admin; the welcome e-mail follows',
        description:
          'qboId: the record comes from QuickBooks (accounting-sync adopts it; no welcome e-mail unless sendWelcomeEmail is true).',
        security: [{ session: [] }],
        body: NewUserBody,
        response: { 201: Type.Object({ result: UserView }) },
      },
    },
    async (request, reply) => {
      const input = trimmed(request.body) as NewUserInput;
      if (!mayManage(request.user.permissions, input.permissions)) throw forbidden(MESSAGES.onlySuperadmin);
      const problem = newUserProblem(input);
      if (problem) throw badRequest(problem);
      let company: Company | null = null;
      if (input.permissions === 'customer') {
        company = await liveCompany(ctx, input.CompanyId);
        if (!company) throw badRequest(MESSAGES.selectParentCompany);
      }
      const welcome = sendsWelcome(input);
      const fields: Partial<User> = {
        permissions: input.permissions,
        email: normaliseEmail(input.email),
        firstName: input.firstName ?? '',
        lastName: input.lastName ?? '',
        ...(present(input.displayName) ? { displayName: input.displayName } : {}),
        ...(present(input.phone) ? { phone: input.phone } : {}),
        ...(present(input.qboId) ? { qboId: input.qboId } : {}),
        ...(company
          ? {
              CompanyId: company._id.toString(),
              ownCompany: present(input.ownCompany) ? input.ownCompany : company.name,
            }
          : {}),
        revision: 1,
      };
      const user = newUserWithEvent(ctx.users, fields, request.id, { welcome });
      if (welcome) {
        const { pending, event } = welcomeRequest(user, request.id);
        user.passwordReset = pending;
        user.outbox.push(event);
      }
      try {
        await user.save();
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict(MESSAGES.emailTaken);
        throw err;
      }
      ctx.eventsWritten();
      // A deletion of the company may have started meanwhile (it checks for customers after
      // marking the company): whoever comes second sees the other, so the customer is undone.
      if (company && !(await liveCompany(ctx, company._id.toString()))) {
        await deleteUser(ctx, user._id.toString(), request.id);
        throw badRequest(MESSAGES.selectParentCompany);
      }
      return reply.code(201).send({ result: publicUser(user.toObject() as User) });
    },
  );

  app.delete(
    '/user/:id',
    {
      onRequest: staffOnly,
      schema: {
        summary: 'Staff: delete an account for good (admins only by a superadmin); its orders stay readable',
        security: [{ session: [] }],
        params: objectIdParam,
        response: {
          200: Type.Object({ result: Type.Object({ id: Type.String(), message: Type.String() }) }),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const actor = request.user;
      const deleted = await deleteUser(ctx, id, request.id, (target) => {
        if (!mayManage(actor.permissions, target.permissions)) throw forbidden(MESSAGES.onlySuperadmin);
        if (actor.id === id) throw conflict(MESSAGES.notYourselfDelete);
      });
      if (!deleted) throw notFound(MESSAGES.userNotFound);
      await ctx.eventsPublished();
      return { result: { id, message: MESSAGES.userDeleted } };
    },
  );
}
