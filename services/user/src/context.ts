import type { BaseContext } from '@decor/kit';
import type { UserConfig } from './config';
import { type ActiveCartModel, activeCartModel } from './store/active-cart-model';
import { type CompanyModel, companyModel } from './store/company-model';
import { type User, type UserModel, userModel } from './store/user-model';

export interface UserContext extends BaseContext<UserConfig> {
  users: UserModel;
  companies: CompanyModel;
  /** Customers' active carts, from the cart service's events. */
  activeCarts: ActiveCartModel;
  /**
   * Staff whose QuickBooks connection needs (re)authorising get this URL at sign-in (spec:
   * 'Re-directing to Quickbooks...'). The accounting-sync issue fills it in; until then: none.
   */
  accountingSignInUrl(user: User): Promise<string | undefined>;
}

export function buildUserContext(base: BaseContext<UserConfig>): UserContext {
  return {
    ...base,
    users: userModel(base.connection),
    companies: companyModel(base.connection),
    activeCarts: activeCartModel(base.connection),
    accountingSignInUrl: async () => undefined,
  };
}
