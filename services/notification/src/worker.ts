import { exitOnStartFailure, startWorkers } from '@decor/kit';
import { loadNotificationConfig } from './config';
import { notificationWorkers } from './worker-app';

// The worker answers /healthz and /readyz on WORKER_PORT, beside the service's own PORT.
const config = loadNotificationConfig({ ...process.env, PORT: process.env.WORKER_PORT ?? '4116' });
startWorkers(notificationWorkers(config)).catch(exitOnStartFailure);
