import { exitOnStartFailure, startService } from '@decor/kit';
import { catalogueService } from './app';
import { loadCatalogueConfig } from './config';

startService(catalogueService(loadCatalogueConfig())).catch(exitOnStartFailure);
