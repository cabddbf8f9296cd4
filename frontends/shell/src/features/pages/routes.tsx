import { lazy } from 'react';
import { preloadable } from '../../shared/preloadable';

// The shell's own pages, each its own chunk loaded when first visited (the public pages also ahead
// of hydrating their server-rendered HTML: preloadable). Where they are mounted and who may open
// them is the route table's (src/routes.tsx).
export const Home = preloadable(() => import('./components/Home'));
export const Gallery = preloadable(() => import('./components/Gallery'));
export const Tos = preloadable(() => import('./components/Tos'));
export const Reset = lazy(() => import('./components/Reset'));
export const Callback = lazy(() => import('./components/Callback'));
export const Orders = lazy(() => import('./components/Orders'));
