import type { BaseContext } from '@decor/kit';
import type { UserConfig } from './config';
import { type User, type UserModel, userModel } from './store/user-model';

export interface UserContext extends BaseContext<UserConfig> {
  users: UserModel;
  /**
   * Staff whose QuickBooks connection needs (re)authorising get this URL at sign-in (spec:
   * 'Re-directing to Quickbooks...'). The accounting-sync issue fills it in; until then: none.
   */
  accountingSignInUrl(user: User): Promise<string | undefined>;
}

export function buildUserContext(base: BaseContext<UserConfig>): UserContext {
  return { ...base, users: userModel(base.connection), accountingSignInUrl: async () => undefined };
}
