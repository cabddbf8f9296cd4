import { Type } from '@sinclair/typebox';
import { defineEvent } from './envelope';

/** Events of the user aggregate (user service). */
export const PasswordResetRequested = defineEvent(
  'PasswordResetRequested',
  1,
  'user',
  Type.Object({
    userId: Type.String(),
    email: Type.String(),
    displayName: Type.String(),
    /** Single-use secret; only the notification service sees it, to build the e-mailed link. */
    resetToken: Type.String(),
    expiresAt: Type.String(),
  }),
);

export const UserCreated = defineEvent(
  'UserCreated',
  1,
  'user',
  Type.Object({
    userId: Type.String(),
    email: Type.String(),
    displayName: Type.String(),
    permissions: Type.String(),
    /** A customer's parent company (id and name), when it has one; optional so v1 readers still match. */
    companyId: Type.Optional(Type.String()),
    ownCompany: Type.Optional(Type.String()),
    /** false for accounts that were seeded or imported with a password already: no welcome e-mail. */
    welcome: Type.Optional(Type.Boolean()),
    /** Name parts and phone for the accounting record (optional: v1 readers still match). */
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
    /**
     * Set when the account was imported from QuickBooks: it is already a QuickBooks customer with this
     * id, so accounting-sync adopts it instead of creating a second record.
     */
    qboId: Type.Optional(Type.String()),
  }),
);

/** A user's state after a change of profile or role fields (its whole current state, not a diff). */
export const UserUpdated = defineEvent(
  'UserUpdated',
  1,
  'user',
  Type.Object({
    userId: Type.String(),
    email: Type.String(),
    displayName: Type.String(),
    permissions: Type.String(),
    active: Type.Boolean(),
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
    companyId: Type.Optional(Type.String()),
    ownCompany: Type.Optional(Type.String()),
    qboId: Type.Optional(Type.String()),
  }),
);

/**
 * Staff suspended the account: it cannot sign in, and every gateway instance refuses the sessions it
 * already holds (tokens issued before `at`) from now on, also after it is enabled again.
 */
export const UserSuspended = defineEvent(
  'UserSuspended',
  1,
  'user',
  Type.Object({ userId: Type.String(), email: Type.String(), at: Type.String() }),
);

/** Staff enabled a suspended account again: new sign-ins work (older sessions stay refused). */
export const UserEnabled = defineEvent(
  'UserEnabled',
  1,
  'user',
  Type.Object({ userId: Type.String(), email: Type.String(), at: Type.String() }),
);

/**
 * The account was deleted for good: its sessions are refused everywhere. Orders keep the copy of the
 * user's fields their service holds, so staff can still read them.
 */
export const UserDeleted = defineEvent(
  'UserDeleted',
  1,
  'user',
  Type.Object({
    userId: Type.String(),
    email: Type.String(),
    permissions: Type.String(),
    at: Type.String(),
    qboId: Type.Optional(Type.String()),
  }),
);

/**
 * A welcome e-mail is due (a new account, or staff re-sending it): the notification service sends
 * it with a link to set a password. `setPasswordToken` is a single-use password-reset token (the
 * reset page's link); only the notification service uses it.
 */
export const WelcomeEmailRequested = defineEvent(
  'WelcomeEmailRequested',
  1,
  'user',
  Type.Object({
    userId: Type.String(),
    email: Type.String(),
    displayName: Type.String(),
    setPasswordToken: Type.String(),
    expiresAt: Type.String(),
  }),
);

/** A company (a customer's parent record) was created or changed: its whole current state. */
export const CompanyUpserted = defineEvent(
  'CompanyUpserted',
  1,
  'user',
  Type.Object({
    companyId: Type.String(),
    name: Type.String(),
    displayName: Type.String(),
    street: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(Type.String()),
    zipCode: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
    /** Set when the company was imported from QuickBooks (accounting-sync adopts that record). */
    qboId: Type.Optional(Type.String()),
  }),
);

/** A company without customers was deleted. */
export const CompanyDeleted = defineEvent(
  'CompanyDeleted',
  1,
  'user',
  Type.Object({ companyId: Type.String(), name: Type.String(), qboId: Type.Optional(Type.String()) }),
);

export const ALL_EVENTS = [
  PasswordResetRequested,
  UserCreated,
  UserUpdated,
  UserSuspended,
  UserEnabled,
  UserDeleted,
  WelcomeEmailRequested,
  CompanyUpserted,
  CompanyDeleted,
] as const;
