import { UserCreated } from '@decor/contracts';
import { newEvent, type OutboxFields, outboxPlugin } from '@decor/kit';
import { type Connection, type Model, Schema, type Types } from 'mongoose';
import type { PendingReset } from '../domain/password-reset';
import { displayName, PERMISSIONS, type Permission } from '../domain/user';

/** Spec §3 User, plus what only the server keeps (password hash, pending reset, outbox). */
export interface User extends OutboxFields {
  _id: Types.ObjectId;
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  permissions: Permission;
  active: boolean;
  ownCompany?: string;
  CompanyId?: string;
  qboId?: string;
  passwordHash?: string;
  passwordReset?: PendingReset | null;
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<User>(
  {
    firstName: { type: String, default: '' },
    lastName: { type: String, default: '' },
    email: { type: String, required: true, lowercase: true, trim: true },
    phone: String,
    permissions: { type: String, enum: PERMISSIONS, required: true },
    active: { type: Boolean, default: true },
    ownCompany: String,
    CompanyId: String,
    qboId: String,
    passwordHash: String,
    passwordReset: { type: { jtiHash: String, expiresAt: Date }, default: null, _id: false },
  },
  { timestamps: true },
);
userSchema.index({ email: 1 }, { unique: true });
userSchema.plugin(outboxPlugin);

export type UserModel = Model<User>;

export function userModel(connection: Connection): UserModel {
  return connection.model<User>('User', userSchema, 'users');
}

/** The user as the API shows it: never the password hash, the reset secret or the outbox. */
export function publicUser(user: User) {
  return {
    id: user._id.toString(),
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: displayName(user),
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
  const user = new users(fields);
  const id = user._id.toString();
  user.outbox.push(
    newEvent(UserCreated, {
      aggregateId: id,
      correlationId,
      payload: {
        userId: id,
        email: user.email,
        displayName: displayName(user),
        permissions: user.permissions,
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
