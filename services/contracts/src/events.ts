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
  }),
);

export const ALL_EVENTS = [PasswordResetRequested, UserCreated] as const;
