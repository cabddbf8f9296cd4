/** The package entry: what other workspaces (the gateway's and the browser journeys' stacks, benches) may use; main.ts starts the process. */
export { USER_TOPICS, userService } from './app';
export { loadUserConfig, userConfigSchema } from './config';
export type { UserContext } from './context';
export { hashPassword } from './domain/password';
export { companyModel } from './store/company-model';
export { newUserWithEvent, userModel } from './store/user-model';
