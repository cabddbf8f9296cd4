import { Type } from '@sinclair/typebox';
import { defineEvent } from './envelope';

/** Events of the user aggregate (user service); its e-mail requests travel on `user-email`. */
/**
 * v2: the event carries the reset's id, not the link: the notification service's worker mints the
 * link's token at send time (signed with the shared secret), so no link sits in Kafka or Redis.
 */
export const PasswordResetRequested = defineEvent(
  'PasswordResetRequested',
  2,
  'user-email',
  Type.Object({
    userId: Type.String(),
    email: Type.String(),
    displayName: Type.String(),
    /** The pending reset's id (`jti`): useless without the secret that signs the link. */
    resetId: Type.String(),
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
 * it with a link to set a password, a reset link it mints from `resetId` at send time (v2; v1
 * carried the link itself).
 */
export const WelcomeEmailRequested = defineEvent(
  'WelcomeEmailRequested',
  2,
  'user-email',
  Type.Object({
    userId: Type.String(),
    email: Type.String(),
    displayName: Type.String(),
    resetId: Type.String(),
    expiresAt: Type.String(),
  }),
);

/**
 * The user's sessions up to now end: tokens carrying a session version (`sv`) below
 * `sessionVersion` are refused by the gateway and every service (the kit's auth plugin), which learn
 * it from this event alone. Published with a password change or reset, a sign-out, a suspension and
 * a deletion.
 */
export const SessionsRevoked = defineEvent(
  'SessionsRevoked',
  1,
  'user',
  Type.Object({
    userId: Type.String(),
    sessionVersion: Type.Integer({ minimum: 1 }),
    reason: Type.Union([
      Type.Literal('password-changed'),
      Type.Literal('password-reset'),
      Type.Literal('signed-out'),
      Type.Literal('suspended'),
      Type.Literal('deleted'),
    ]),
    at: Type.String(),
  }),
);

/** What a refused session answers (401 with `expiredtoken: true`). */
export const SESSION_MESSAGES = {
  suspended: 'Your account is suspended. Please contact us.',
  deleted: 'This account no longer exists.',
  ended: 'Your session has ended. Please sign in again.',
  /**
   * 503: this process has not yet read which sessions ended (just started, or Kafka unreadable), so it
   * can neither accept nor refuse a token; anonymous routes and signing in still work.
   */
  unchecked: 'Sessions cannot be checked right now, try again shortly',
} as const;

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
  SessionsRevoked,
  CompanyUpserted,
  CompanyDeleted,
] as const;
