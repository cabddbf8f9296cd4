import type { ServiceApp } from '@decor/kit';
import type { UserContext } from '../context';
import { MESSAGES } from '../domain/refusals';
import { welcomeRefusal } from '../domain/user-changes';
import { liveAccountByEmail } from '../store/user-reads';
import { sendWelcome } from '../store/user-writes';
import { orNotFound, refuseIf } from './refusals';
import { MessageResult, WelcomeBody } from './schemas';

export async function welcomeRoutes(app: ServiceApp, ctx: UserContext): Promise<void> {
  app.post(
    '/send/welcomeEmail',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        summary:
          'Staff: e-mail the welcome message (with a new link to set a password) to an account again; one e-mail per request',
        security: [{ session: [] }],
        body: WelcomeBody,
        response: { 200: MessageResult },
      },
    },
    async (request) => {
      const user = orNotFound(await liveAccountByEmail(ctx, request.body.email), 'userNotFound');
      const { permissions, active } = user;
      refuseIf(welcomeRefusal(request.user, { id: user._id.toString(), permissions, active }));
      await sendWelcome(ctx, user, request.id);
      return { result: { message: MESSAGES.welcomeSent } };
    },
  );
}
