import { exitOnStartFailure, startService } from '@decor/kit';
import { notificationService } from './app';
import { loadNotificationConfig } from './config';

startService(notificationService(loadNotificationConfig())).catch(exitOnStartFailure);
