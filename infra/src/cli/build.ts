/**
 * Bundles each runnable (gateway, services) with esbuild: our own workspace packages (@decor/*)
 * are bundled in, third-party packages stay in node_modules. Types are checked by `tsc`, not here.
 *   tsx infra/src/cli/build.ts [gateway services/user …]   (no argument: all of them)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
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
  const dirs = targets.length > 0 ? targets : RUNNABLES.map((r) => r.dir);
  const started = Date.now();
  await Promise.all(dirs.map(buildRunnable));
  console.log(`built ${dirs.length} runnable(s) in ${Date.now() - started} ms`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
