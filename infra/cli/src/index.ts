/**
 * `@decor/cli`: what the benches and the browser journeys reuse of `npm start`/`npm run build` —
 * the list of runnables, their esbuild bundles and the frontend builds.
 */
export { buildRunnable } from './build';
export { buildFrontends, describeFrontendBuilds, FRONTENDS, type Frontend } from './frontends';
export { GATEWAY, REPO_ROOT, RUNNABLES, type Runnable, SERVICES } from './runnables';
