/**
 * Bundles the public pages' server renderer (frontends/shell/src/server/render.tsx, issue 17) for
 * node with esbuild: the shell's frame and pages and the storefront's Inventory screen, imported
 * directly (the server has no federation runtime: ../remotes is swapped for server/remotes.ts).
 * Self-contained (React, antd and the router bundled in): antd's packages mix ES modules and
 * CommonJS, which a plain `require` from the gateway (or jest) cannot always load. Written to frontends/shell/dist-server/render.js, outside dist/ so it is never served.
 * Rebuilt by `buildFrontends` when the inputs of the shell or the storefront (or this file) changed.
 */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { REPO_ROOT } from './runnables';

const SHELL_SRC = path.join(REPO_ROOT, 'frontends', 'shell', 'src');
export const SERVER_RENDERER = path.join(REPO_ROOT, 'frontends', 'shell', 'dist-server', 'render.js');

const serverBundle: Plugin = {
  name: 'server-bundle',
  setup(b) {
    // The shell's remotes.ts (federation runtime) becomes the server's direct imports.
    b.onResolve({ filter: /(^|\/)remotes$/ }, (args) =>
      path.resolve(args.resolveDir, args.path) === path.join(SHELL_SRC, 'remotes')
        ? { path: path.join(SHELL_SRC, 'server', 'remotes.ts') }
        : undefined,
    );
  },
};

export async function buildServerRenderer(): Promise<void> {
  await build({
    entryPoints: [path.join(SHELL_SRC, 'server', 'render.tsx')],
    outfile: SERVER_RENDERER,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    jsx: 'automatic',
    // The packages' ES builds: tree-shaken (antd's icons are thousands of modules in CommonJS).
    mainFields: ['module', 'main'],
    sourcemap: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [serverBundle],
  });
}
