import { createContext } from 'react';
import type { AppRoute } from '../../../shared/access';

/** The route table AppFrame was handed, for the user menu (a lazy chunk deep in the top bar). */
export const FrameRoutes = createContext<readonly AppRoute[]>([]);
