/**
 * The production image's runtime install (infra/cli/docker/node-app.Dockerfile), done outside Docker as
 * the image does it: the narrowed manifests from only-workspace.cjs, `npm install --omit=dev`, the
 * esbuild bundle. No development tool lands, the lock file's versions are kept, and the bundle finds
 * every third-party module it needs (it gets as far as validating its environment).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildRunnable } from '../src/build';
import { REPO_ROOT } from '../src/runnables';

const DEV_TOOLS = [
  's3rver',
  'playwright-core',
  'testcontainers',
  'smtp-server',
  'typescript',
  'jest',
  'esbuild',
];

interface LockPackage {
  version?: string;
}
const lockPackages = (file: string): Record<string, LockPackage> =>
  JSON.parse(readFileSync(file, 'utf8')).packages;

/** "node_modules/a/node_modules/b" → "b": where a package sits may change, its version may not. */
const versionsByName = (packages: Record<string, LockPackage>) => {
  const out = new Map<string, Set<string>>();
  for (const [key, pkg] of Object.entries(packages)) {
    if (!key.includes('node_modules/') || !pkg.version) continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    out.set(name, (out.get(name) ?? new Set()).add(pkg.version));
  }
  return out;
};

describe.each(['gateway', 'services/accounting-sync'])('the production install of %s', (app) => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'decor-image-'));
    execFileSync('node', ['infra/cli/docker/only-workspace.cjs', app, dir], { cwd: REPO_ROOT });
    execFileSync('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'ignore',
    });
    await buildRunnable(app);
    // The image holds the bundle beside its own node_modules only (none of the repo's above it).
    cpSync(path.join(REPO_ROOT, app, 'dist'), path.join(dir, app, 'dist'), { recursive: true });
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs no development tool and no other workspace', () => {
    const installed = readdirSync(path.join(dir, 'node_modules'));
    expect(installed.filter((name) => DEV_TOOLS.includes(name))).toEqual([]);
    const decor = readdirSync(path.join(dir, 'node_modules/@decor'));
    expect(decor).toContain(app === 'gateway' ? 'gateway' : 'accounting-sync');
    // None of the infrastructure workspaces (local servers, emulator, benches, scripts, testbed) ships.
    const infra = ['stack', 'qbo-emulator', 'payments-emulator', 'bench', 'cli', 'testbed'];
    expect(decor.filter((name) => infra.includes(name))).toEqual([]);
  });

  it("keeps the lock file's version of every package it installs", () => {
    const locked = versionsByName(lockPackages(path.join(REPO_ROOT, 'package-lock.json')));
    const installed = versionsByName(lockPackages(path.join(dir, 'node_modules/.package-lock.json')));
    expect(installed.size).toBeGreaterThan(50);
    const drifted = [...installed].filter(([name, versions]) =>
      [...versions].some((v) => !locked.get(name)?.has(v)),
    );
    expect(drifted).toEqual([]);
  });

  it('runs its bundle with only these modules (it stops at the missing production settings)', () => {
    const run = spawnSync('node', ['dist/main.js'], {
      cwd: path.join(dir, app),
      env: { PATH: process.env.PATH, NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.stderr + run.stdout).not.toMatch(/Cannot find module/);
    expect(run.stderr + run.stdout).toMatch(/Invalid environment: .*required when NODE_ENV=production/);
  });
});
