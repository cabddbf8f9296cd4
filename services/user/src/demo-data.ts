import type { UserContext } from './context';
import { hashPassword } from './domain/password';

/** Demo accounts for local runs: created only when the database has no user, never in production. */
export async function seedDemoUsers(ctx: UserContext): Promise<void> {
  const { config, users, log } = ctx;
  if (config.NODE_ENV === 'production' || (await users.estimatedDocumentCount()) > 0) return;
  const passwordHash = await hashPassword(config.DEMO_PASSWORD);
  await users.create([
    {
      firstName: 'Olivia',
      lastName: 'Grant',
      email: config.DEMO_SUPERADMIN_EMAIL,
      permissions: 'superadmin',
      passwordHash,
    },
    {
      firstName: 'Sam',
      lastName: 'Reyes',
      email: config.DEMO_ADMIN_EMAIL,
      permissions: 'admin',
      passwordHash,
    },
    {
      firstName: 'Casey',
      lastName: 'Morgan',
      email: config.DEMO_CUSTOMER_EMAIL,
      permissions: 'customer',
      ownCompany: 'Evergreen Weddings',
      passwordHash,
    },
  ]);
  log.info(
    `demo logins (password ${config.DEMO_PASSWORD}): superadmin ${config.DEMO_SUPERADMIN_EMAIL}, admin ${config.DEMO_ADMIN_EMAIL}, customer ${config.DEMO_CUSTOMER_EMAIL}`,
  );
}
