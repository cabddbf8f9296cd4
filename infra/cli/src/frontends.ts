/**
 * Builds the three frontends (frontends/shell, storefront, admin) with webpack, one after the other
 * (each is CPU-heavy; the machine has 2 cores). A frontend whose inputs did not change since its last
 * build is reused: the hash of its inputs is kept in dist/.build-hash.
 *   Inputs: its src/, index.html, webpack.config.mts and package.json, the shared frontends/core
 *   sources, the order screens (frontends/orders, bundled into both remotes),
 *   frontends/webpack.shared.mts, the contracts' sources and the root package-lock.json.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { precompress } from '@decor/stack/tools';
import { withFileLock } from './file-lock';
import { REPO_ROOT } from './runnables';
import { buildServerRenderer, SERVER_RENDERER } from './server-renderer';

export const FRONTENDS = ['shell', 'storefront', 'admin'] as const;
export type Frontend = (typeof FRONTENDS)[number];

const FRONTENDS_DIR = path.join(REPO_ROOT, 'frontends');
const HASH_FILE = '.build-hash';

function filesUnder(target: string): string[] {
  if (!existsSync(target)) return [];
  if (statSync(target).isFile()) return [target];
  return readdirSync(target, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules' && e.name !== 'dist' && !e.name.startsWith('.'))
    .flatMap((e) => filesUnder(path.join(target, e.name)))
    .sort();
}

/** A hash of everything a frontend's bundle is made from. */
export function inputsHash(app: Frontend): string {
  const root = path.join(FRONTENDS_DIR, app);
  const inputs = [
    path.join(root, 'src'),
    path.join(root, 'index.html'),
    path.join(root, 'webpack.config.mts'),
    path.join(root, 'package.json'),
    path.join(FRONTENDS_DIR, 'core', 'src'),
    path.join(FRONTENDS_DIR, 'core', 'package.json'),
    path.join(FRONTENDS_DIR, 'orders', 'src'), // the order screens, bundled into both remotes
    path.join(FRONTENDS_DIR, 'orders', 'package.json'),
    path.join(FRONTENDS_DIR, 'webpack.shared.mts'),
    path.join(REPO_ROOT, 'services', 'contracts', 'src'), // money rules, summary formats
    path.join(REPO_ROOT, 'package-lock.json'),
  ];
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesUnder)) {
    hash.update(path.relative(REPO_ROOT, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const hashFile = (app: Frontend) => path.join(FRONTENDS_DIR, app, 'dist', HASH_FILE);
const builtMarker = (app: Frontend) =>
  path.join(FRONTENDS_DIR, app, 'dist', app === 'shell' ? 'index.html' : 'remoteEntry.js');

export function isUpToDate(app: Frontend, hash = inputsHash(app)): boolean {
  return (
    existsSync(builtMarker(app)) && existsSync(hashFile(app)) && readFileSync(hashFile(app), 'utf8') === hash
  );
}

function runWebpack(app: Frontend): Promise<void> {
  const cwd = path.join(FRONTENDS_DIR, app);
  const cli = require.resolve('webpack-cli/bin/cli.js', { paths: [cwd] });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'build', '--mode', 'production'], {
      cwd,
      env: { ...process.env, NODE_ENV: 'production', NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`frontends/${app}: webpack exited with ${code}\n${output.trim().slice(-4000)}`));
    });
  });
}

export interface FrontendBuild {
  app: Frontend;
  reused: boolean;
  ms: number;
}

/**
 * Builds (or reuses) the given frontends, in order; throws on the first failure. One build at a time
 * on this checkout (the build lock): two at once (`npm start` beside a browser test file, two jest
 * workers) would both spend a build's CPU and write the same dist/; the second waits, then reuses.
 */
export async function buildFrontends(
  apps: readonly Frontend[] = FRONTENDS,
  opts: { force?: boolean } = {},
): Promise<FrontendBuild[]> {
  return withFileLock(BUILD_LOCK, () => buildUnderLock(apps, opts));
}

async function buildUnderLock(
  apps: readonly Frontend[],
  opts: { force?: boolean },
): Promise<FrontendBuild[]> {
  const results: FrontendBuild[] = [];
  for (const app of apps) {
    const started = Date.now();
    const hash = inputsHash(app);
    if (!opts.force && isUpToDate(app, hash)) {
      precompress(path.join(FRONTENDS_DIR, app, 'dist')); // a build from before precompression
      results.push({ app, reused: true, ms: Date.now() - started });
      continue;
    }
    await runWebpack(app);
    precompress(path.join(FRONTENDS_DIR, app, 'dist'));
    writeFileSync(hashFile(app), hash);
    results.push({ app, reused: false, ms: Date.now() - started });
  }
  // The public pages' server renderer (the shell's frame and the storefront's inventory): rebuilt
  // when the shell's or the storefront's inputs (or its own build script) changed. Every browser test
  // file asks for the builds, and an esbuild bundle of React and antd each time was seconds a file.
  if (apps.includes('shell') || apps.includes('storefront')) {
    const hash = serverRendererHash();
    if (opts.force || !existsSync(SERVER_RENDERER) || readHash(SERVER_RENDERER_HASH) !== hash) {
      await buildServerRenderer();
      writeFileSync(SERVER_RENDERER_HASH, hash);
    }
  }
  return results;
}

const BUILD_LOCK = path.join(FRONTENDS_DIR, '.build-lock');

const SERVER_RENDERER_HASH = path.join(path.dirname(SERVER_RENDERER), HASH_FILE);

/** Its inputs: the shell's and the storefront's (core, orders, contracts, lock file included) and its build script. */
function serverRendererHash(): string {
  return createHash('sha256')
    .update(inputsHash('shell'))
    .update(inputsHash('storefront'))
    .update(readFileSync(path.join(REPO_ROOT, 'infra', 'cli', 'src', 'server-renderer.ts')))
    .digest('hex');
}

const readHash = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

export function describeFrontendBuilds(results: readonly FrontendBuild[]): string {
  return results
    .map((r) => `${r.app} ${r.reused ? 'reused' : `built in ${(r.ms / 1000).toFixed(1)} s`}`)
    .join(', ');
}
