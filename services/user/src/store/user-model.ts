import { UserCreated, UserUpdated } from '@decor/contracts';
import { newEvent, type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema, type Types } from 'mongoose';
import type { PendingReset } from '../domain/password-reset';
import { displayName, PERMISSIONS, type Permission } from '../domain/user';

/** Spec §3 User, plus what only the server keeps (password hash, pending reset, outbox). */
export interface User extends OutboxFields {
  _id: Types.ObjectId;
  firstName: string;
  lastName: string;
  /** Spec §3: entered on the customer form; absent: first and last name. */
  displayName?: string;
  email: string;
  phone?: string;
  permissions: Permission;
  active: boolean;
  ownCompany?: string;
  CompanyId?: string;
  qboId?: string;
  passwordHash?: string;
  passwordReset?: PendingReset | null;
  /**
   * Stamped into every session token (`sv`); raised (to a millisecond time, so no read is needed) by
   * a password change or reset, a sign-out, a suspension, a deletion: older tokens are refused
   * everywhere (SessionsRevoked, src/store/sessions.ts).
   */
  sessionVersion?: number;
  /** Lower-case copies for the case-insensitive prefix searches and sorts (indexed). */
  ownCompanyKey?: string;
  displayNameKey?: string;
  /** Bumped by every change: the guard of the read-compute-write cycle. */
  revision?: number;
  /** Set when the account was deleted: the document stays as a tombstone until its events are out. */
  deletedAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<User>(
  {
    firstName: { type: String, default: '' },
    lastName: { type: String, default: '' },
    displayName: String,
    email: { type: String, required: true, lowercase: true, trim: true },
    phone: String,
    permissions: { type: String, enum: PERMISSIONS, required: true },
    active: { type: Boolean, default: true },
    ownCompany: String,
    CompanyId: String,
    qboId: String,
    passwordHash: String,
    passwordReset: { type: { jtiHash: String, expiresAt: Date }, default: null, _id: false },
    sessionVersion: { type: Number, default: 0 },
    ownCompanyKey: String,
    displayNameKey: String,
    revision: { type: Number, default: 0 },
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true },
);
userSchema.index({ email: 1 }, { unique: true });
// The staff lists (spec §7): by role, company prefix or order, newest first; a company's customers.
userSchema.index({ permissions: 1, ownCompanyKey: 1, _id: 1 });
userSchema.index({ permissions: 1, createdAt: -1, _id: -1 });
userSchema.index({ ownCompanyKey: 1, _id: 1 });
userSchema.index({ createdAt: -1, _id: -1 });
userSchema.index({ CompanyId: 1, displayNameKey: 1 });
userSchema.index({ displayNameKey: 1 });
userSchema.pre('validate', function keys() {
  Object.assign(this, derivedKeys(this));
});
userSchema.plugin(outboxPlugin);

export type UserModel = Model<User>;

export function userModel(connection: Connection): UserModel {
  return connection.model<User>('User', userSchema, 'users');
}

/** Spec §3: the display name entered for the user, else first and last name. */
export function userDisplayName(user: Pick<User, 'firstName' | 'lastName' | 'displayName'>): string {
  return user.displayName?.trim() || displayName(user);
}

/** Fields that derive from others (kept in the same write as them). */
export function derivedKeys(user: Pick<User, 'firstName' | 'lastName' | 'displayName' | 'ownCompany'>) {
  return {
    ownCompanyKey: user.ownCompany ? user.ownCompany.toLowerCase() : undefined,
    displayNameKey: userDisplayName(user).toLowerCase(),
  };
}

/** The user's whole current state as an event (after a profile, company or state change). */
export function userUpdatedEvent(user: User, correlationId: string) {
  const id = user._id.toString();
  return newEvent(UserUpdated, {
    aggregateId: id,
    correlationId,
    payload: {
      userId: id,
      email: user.email,
      displayName: userDisplayName(user),
      permissions: user.permissions,
      active: user.active,
      ...(user.firstName ? { firstName: user.firstName } : {}),
      ...(user.lastName ? { lastName: user.lastName } : {}),
      ...(user.phone ? { phone: user.phone } : {}),
      ...(user.CompanyId ? { companyId: user.CompanyId } : {}),
      ...(user.ownCompany ? { ownCompany: user.ownCompany } : {}),
      ...(user.qboId ? { qboId: user.qboId } : {}),
    },
  });
}

/** The user as the API shows it: never the password hash, the reset secret or the outbox. */
export function publicUser(user: User) {
  return {
    id: user._id.toString(),
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: userDisplayName(user),
    email: user.email,
    phone: user.phone ?? null,
    permissions: user.permissions,
    active: user.active,
    ownCompany: user.ownCompany ?? null,
    CompanyId: user.CompanyId ?? null,
    qboId: user.qboId ?? null,
  };
}

/**
 * A new user document with its UserCreated event already in its outbox, so that saving it stores
 * the user and the announcement in one write (other services learn users only from this event).
 */
export function newUserWithEvent(
  users: UserModel,
  fields: Partial<User>,
  correlationId: string,
  { welcome = true }: { welcome?: boolean } = {},
) {
  const user = new users({ ...fields, ...derivedKeys({ firstName: '', lastName: '', ...fields }) });
  const id = user._id.toString();
  user.outbox.push(
    newEvent(UserCreated, {
      aggregateId: id,
      correlationId,
      payload: {
        userId: id,
        email: user.email,
        displayName: userDisplayName(user),
        permissions: user.permissions,
        ...(user.qboId ? { qboId: user.qboId } : {}),
        ...(user.CompanyId ? { companyId: user.CompanyId } : {}),
        ...(user.ownCompany ? { ownCompany: user.ownCompany } : {}),
        ...(welcome ? {} : { welcome: false }),
        ...(user.firstName ? { firstName: user.firstName } : {}),
        ...(user.lastName ? { lastName: user.lastName } : {}),
        ...(user.phone ? { phone: user.phone } : {}),
      },
    }),
  );
  return user;
}
