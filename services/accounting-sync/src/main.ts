import { exitOnStartFailure, startService } from '@decor/kit';
import { accountingSyncService } from './app';
import { loadAccountingSyncConfig } from './config';

startService(accountingSyncService(loadAccountingSyncConfig())).catch(exitOnStartFailure);
