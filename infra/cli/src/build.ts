/**
 * Bundles each runnable (gateway, services) with esbuild: our own workspace packages (@decor/*)
 * are bundled in, third-party packages stay in node_modules. Types are checked by `tsc`, not here.
 * Then builds the frontends with webpack (frontends.ts), reusing a build whose inputs did not change.
 *   tsx infra/cli/src/build.ts [gateway services/user frontends/shell …]   (no argument: all of them)
 *   DECOR_FRONTENDS_REBUILD=true forces the frontends' build.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { buildFrontends, describeFrontendBuilds, FRONTENDS, type Frontend } from './frontends';
import { REPO_ROOT, RUNNABLES } from './runnables';

const bundleOnlyOurPackages: Plugin = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@decor/') ? undefined : { path: args.path, external: true },
    );
  },
};

export async function buildRunnable(dir: string): Promise<string[]> {
  const root = path.join(REPO_ROOT, dir);
  const entries = ['main', 'worker'].map((n) => path.join(root, 'src', `${n}.ts`)).filter(existsSync);
  await build({
    entryPoints: entries,
    outdir: path.join(root, 'dist'),
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [bundleOnlyOurPackages],
  });
  return entries.map((e) => path.relative(REPO_ROOT, e));
}

async function main(): Promise<void> {
  const targets = process.argv.slice(2);
  const frontendTargets = targets.filter((t) => t.startsWith('frontends/')).map((t) => t.slice(10));
  const unknown = frontendTargets.filter((f) => !(FRONTENDS as readonly string[]).includes(f));
  if (unknown.length > 0) throw new Error(`unknown frontend(s): ${unknown.join(', ')}`);
  const backendTargets = targets.filter((t) => !t.startsWith('frontends/'));
  const dirs = targets.length > 0 ? backendTargets : RUNNABLES.map((r) => r.dir);
  const frontends = targets.length > 0 ? (frontendTargets as Frontend[]) : FRONTENDS;
  const started = Date.now();
  if (dirs.length > 0) {
    await Promise.all(dirs.map(buildRunnable));
    console.log(`built ${dirs.length} runnable(s) in ${Date.now() - started} ms`);
  }
  if (frontends.length > 0) {
    const frontendsStarted = Date.now();
    const results = await buildFrontends(frontends, {
      force: process.env.DECOR_FRONTENDS_REBUILD === 'true',
    });
    console.log(`frontends: ${describeFrontendBuilds(results)} (${Date.now() - frontendsStarted} ms)`);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
