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
  }),
);

export const ALL_EVENTS = [PasswordResetRequested, UserCreated, CompanyUpserted] as const;
