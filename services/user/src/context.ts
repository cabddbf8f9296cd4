import { qboAuthorizeUrl, signConnectState } from '@decor/contracts';
import {
  type BaseContext,
  type BroadcastInvalidation,
  Counter,
  hasRole,
  type KitLogger,
  startBroadcastInvalidation,
} from '@decor/kit';
import type { UserConfig } from './config';
import {
  ACCOUNTING_CONNECTION_ID,
  type AccountingConnectionModel,
  accountingConnectionModel,
} from './store/accounting-connection-model';
import { type ActiveCartModel, activeCartModel } from './store/active-cart-model';
import { type CompanyModel, companyModel } from './store/company-model';
import { type User, type UserModel, userModel } from './store/user-model';
import { UserRoster } from './store/user-roster';

export interface UserContext extends BaseContext<UserConfig> {
  users: UserModel;
  companies: CompanyModel;
  /** Customers' active carts, from the cart service's events. */
  activeCarts: ActiveCartModel;
  /** Whether the company is connected to QuickBooks, from accounting-sync's events. */
  accountingConnection: AccountingConnectionModel;
  /** The staff lists' in-memory index of every live user (store/user-roster.ts says why). */
  roster: UserRoster;
  rosterInvalidation: BroadcastInvalidation;
  /**
   * Password checks run (each costs a scrypt), by purpose (`sign-in`, `password-change`): a guessing
   * attack shows here, and the per-account limit must keep it at the limit (routes/sign-in-limits.ts).
   */
  passwordChecks: Counter<'purpose'>;
  /**
   * Staff get the QuickBooks authorize URL at sign-in while the company is not connected (spec:
   * 'Re-directing to Quickbooks...'), with a state bound to them that accounting-sync accepts once.
   */
  accountingSignInUrl(user: User): Promise<string | undefined>;
}

export function buildUserContext(base: BaseContext<UserConfig>): UserContext {
  const accountingConnection = accountingConnectionModel(base.connection);
  const users = userModel(base.connection);
  const roster = new UserRoster(users, base.config.USER_ROSTER_TTL_MS);
  return {
    ...base,
    users,
    roster,
    // Every write with events passes here: this process's own lists see it at once.
    eventsWritten(docId?: unknown) {
      roster.invalidate();
      base.eventsWritten(docId);
    },
    async eventsPublished() {
      roster.invalidate();
      await base.eventsPublished();
    },
    // Other processes' writes arrive as user events, heard a fifth of a second apart (as ended
    // sessions are): one fetch per window rather than per user event, the list a moment stale on
    // another instance (its own writes clear it at once, above).
    rosterInvalidation: startBroadcastInvalidation({
      name: base.name,
      kafka: base.kafka,
      topic: base.topic('user'),
      logger: base.log as KitLogger,
      batchWindowMs: 200,
      onInvalidate: () => roster.invalidate(),
    }),
    companies: companyModel(base.connection),
    activeCarts: activeCartModel(base.connection),
    accountingConnection,
    passwordChecks: new Counter({
      name: 'user_password_checks_total',
      help: 'Password checks run (sign-in, currentPassword of a password change), by purpose',
      labelNames: ['purpose'],
      registers: [base.metrics],
    }),
    async accountingSignInUrl(user) {
      const session = { id: user._id.toString(), permissions: user.permissions, email: user.email };
      if (!hasRole(session, 'staff')) return undefined;
      const state = await accountingConnection.findById(ACCOUNTING_CONNECTION_ID).lean();
      if (state?.connected) return undefined;
      return qboAuthorizeUrl(base.config, signConnectState(base.config.JWT_SECRET, session.id));
    },
  };
}
