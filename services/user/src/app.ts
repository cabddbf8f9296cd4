import type { AggregateType } from '@decor/contracts';
import type { ServiceApp, ServiceDefinition } from '@decor/kit';
import type { UserConfig } from './config';
import { buildUserContext, type UserContext } from './context';
import { seedDemoUsers } from './demo-data';
import { accountingEventHandlers } from './events/accounting-events';
import { cartEventHandlers } from './events/cart-events';
import { adminUserRoutes } from './routes/admin-users';
import { authRoutes } from './routes/auth';
import { companyRoutes } from './routes/companies';
import { passwordResetRoutes } from './routes/password-reset';
import { signInLimits } from './routes/sign-in-limits';
import { userRoutes } from './routes/user';
import { welcomeRoutes } from './routes/welcome';
import { backfillSearchKeys } from './store/backfill';

export async function registerRoutes(app: ServiceApp, ctx: UserContext): Promise<void> {
  const limits = await signInLimits(app, ctx);
  await app.register(async (scope) => authRoutes(scope as ServiceApp, ctx, limits));
  await app.register(async (scope) => passwordResetRoutes(scope as ServiceApp, ctx, limits));
  await app.register(async (scope) => userRoutes(scope as ServiceApp, ctx, limits));
  await app.register(async (scope) => adminUserRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => companyRoutes(scope as ServiceApp, ctx));
  await app.register(async (scope) => welcomeRoutes(scope as ServiceApp, ctx));
}

/** What the user service publishes: its aggregates' events, and its e-mail requests on their own topic. */
export const USER_TOPICS: AggregateType[] = ['user', 'user-email'];

/** The user service: accounts, companies, sign-in and password reset. */
export function userService(config: UserConfig): ServiceDefinition<UserConfig, UserContext> {
  return {
    name: 'user',
    config,
    publishes: USER_TOPICS,
    build: buildUserContext,
    outbox: (ctx) => [ctx.users, ctx.companies],
    consumers: (ctx) => [
      { name: 'carts', topics: ['cart'], handlers: cartEventHandlers(ctx) },
      { name: 'accounting', topics: ['accounting'], handlers: accountingEventHandlers(ctx) },
    ],
    routes: registerRoutes,
    closers: (ctx) => [{ name: 'roster invalidation', close: () => ctx.rosterInvalidation.stop() }],
    onReady: async (ctx) => {
      await backfillSearchKeys(ctx);
      await seedDemoUsers(ctx);
    },
  };
}
