/**
 * @decor/web-core: what the shell and the remotes share at run time (one copy, provided by the shell):
 * the axios client, the store's slices and hooks, the RTK Query api, the shared pure rules and the
 * QuickBooks session banner.
 */
export * from './api';
export * from './banners';
export * from './chunk-once';
export * from './early-keys';
export * from './http';
export * from './qbo-session-banner';
export * from './qbo-session-slice';
export * from './roles';
export * from './rules/failed-emails';
export * from './rules/format';
export * from './rules/images';
export * from './rules/price';
export * from './rules/will-call';
export * from './server-state';
export * from './session-slice';
export * from './side-nav-slice';
export * from './store';
export * from './types';
export * from './use-bottom-sentinel';
export * from './use-debounced';
export * from './use-hydrated';
