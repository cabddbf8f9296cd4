import { UserView } from '@decor/contracts';
import { listQuerySchema, objectIdParam, type ServiceApp, sendList } from '@decor/kit';
import { Type } from '@sinclair/typebox';
import type { UserContext } from '../context';
import {
  type NewUserInput,
  newUserFields,
  newUserRefusal,
  sendsWelcome,
  trimmed,
} from '../domain/admin-rules';
import { MESSAGES } from '../domain/refusals';
import { deleteUserRefusal } from '../domain/user-changes';
import { parentCompany } from '../store/companies';
import { listUsers, USER_LIST } from '../store/lists';
import { publicUser } from '../store/user-model';
import { createAccount, deleteUser } from '../store/user-writes';
import { orRefuse, refuseIf } from './refusals';
import { Deleted, NewUserBody } from './schemas';

/** Staff's users list, account creation and deletion (changes: routes/user.ts). */
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
      const { items, total } = await listUsers(ctx, request.query as Record<string, unknown>);
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
      refuseIf(newUserRefusal(request.user.permissions, input));
      const company =
        input.permissions === 'customer' ? orRefuse(await parentCompany(ctx, input.CompanyId)) : null;
      const parent = company ? { id: company._id.toString(), name: company.name } : null;
      const user = orRefuse(
        await createAccount(
          ctx,
          newUserFields(input, parent),
          { welcome: sendsWelcome(input), companyId: parent?.id },
          request.id,
        ),
      );
      return reply.code(201).send({ result: publicUser(user) });
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
        response: { 200: Deleted },
      },
    },
    async (request) => {
      const { id } = request.params;
      refuseIf(
        await deleteUser(ctx, id, request.id, (target) =>
          deleteUserRefusal(request.user, { id, permissions: target.permissions, active: target.active }),
        ),
      );
      await ctx.eventsPublished();
      return { result: { id, message: MESSAGES.userDeleted } };
    },
  );
}
