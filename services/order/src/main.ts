import { exitOnStartFailure, startService } from '@decor/kit';
import { orderService } from './app';
import { loadOrderConfig } from './config';

startService(orderService(loadOrderConfig())).catch(exitOnStartFailure);
