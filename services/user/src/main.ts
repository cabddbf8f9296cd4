import { exitOnStartFailure, startService } from '@decor/kit';
import { userService } from './app';
import { loadUserConfig } from './config';

startService(userService(loadUserConfig())).catch(exitOnStartFailure);
