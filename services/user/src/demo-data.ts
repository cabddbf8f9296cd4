import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import type { UserContext } from './context';
import { hashPassword } from './domain/password';
import { companyKeys, companyUpsertedEvent } from './store/company-model';
import { newUserWithEvent } from './store/user-model';

export const DEMO_COMPANY = {
  name: 'Evergreen Weddings',
  displayName: 'Evergreen Weddings',
  street: '120 Orchard Lane',
  city: 'Portland',
  state: 'OR',
  zipCode: '97205',
  phone: '503-555-0142',
};

/**
 * Demo accounts for local runs: created only when the database has no user, never in production.
 * The customer belongs to the demo company. Each user is stored with its UserCreated event.
 */
export async function seedDemoUsers(ctx: UserContext): Promise<void> {
  const { config, users, companies, log } = ctx;
  if (config.NODE_ENV === 'production' || (await users.estimatedDocumentCount()) > 0) return;
  // An upsert by name: a start that died after this line, or a second instance, finds the same company.
  // The insert carries its CompanyUpserted event (accounting-sync makes it a QuickBooks customer).
  const upsertCompany = () => {
    const _id = new Types.ObjectId();
    return companies.findOneAndUpdate(
      { name: DEMO_COMPANY.name },
      {
        $setOnInsert: {
          _id,
          ...DEMO_COMPANY,
          ...companyKeys(DEMO_COMPANY),
          revision: 1,
          outbox: [companyUpsertedEvent({ _id, ...DEMO_COMPANY }, randomUUID())],
        },
      },
      { upsert: true, new: true },
    );
  };
  // Two upserts racing may both try the insert; the loser's retry finds the winner's record.
  const company = await upsertCompany().catch((err) =>
    isDuplicateKey(err) ? upsertCompany() : Promise.reject(err),
  );
  const passwordHash = await hashPassword(config.DEMO_PASSWORD);
  const correlationId = randomUUID();
  const demo = [
    {
      firstName: 'Olivia',
      lastName: 'Grant',
      email: config.DEMO_SUPERADMIN_EMAIL,
      permissions: 'superadmin' as const,
    },
    { firstName: 'Sam', lastName: 'Reyes', email: config.DEMO_ADMIN_EMAIL, permissions: 'admin' as const },
    {
      firstName: 'Casey',
      lastName: 'Morgan',
      email: config.DEMO_CUSTOMER_EMAIL,
      permissions: 'customer' as const,
      CompanyId: company._id.toString(),
      ownCompany: company.name,
    },
  ];
  try {
    await users.insertMany(
      // Demo logins are printed at start: no welcome e-mail for them.
      demo.map((fields) =>
        newUserWithEvent(users, { ...fields, passwordHash }, correlationId, { welcome: false }),
      ),
      { ordered: false },
    );
  } catch (err) {
    // Another instance seeding at the same moment already inserted these e-mails (unique index).
    if (!isDuplicateKey(err)) throw err;
  }
  ctx.eventsWritten();
  log.info(
    `demo logins (password ${config.DEMO_PASSWORD}): superadmin ${config.DEMO_SUPERADMIN_EMAIL}, admin ${config.DEMO_ADMIN_EMAIL}, customer ${config.DEMO_CUSTOMER_EMAIL}`,
  );
}

/** E11000, also inside an unordered bulk insert whose every failure is a duplicate e-mail. */
function isDuplicateKey(err: unknown): boolean {
  const e = err as { code?: number; writeErrors?: { code?: number }[] };
  return e.code === 11000 || (!!e.writeErrors?.length && e.writeErrors.every((w) => w.code === 11000));
}
