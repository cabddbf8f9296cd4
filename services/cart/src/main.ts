import { exitOnStartFailure, startService } from '@decor/kit';
import { cartService } from './app';
import { loadCartConfig } from './config';

startService(cartService(loadCartConfig())).catch(exitOnStartFailure);
