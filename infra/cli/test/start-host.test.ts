/**
 * `npm start` keeps its demo logins (published password) on this machine: a non-loopback HOST, which
 * every service and the gateway would listen on, stops it before anything starts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../../..');

describe('npm start and HOST', () => {
  let dir: string;
  let notADir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'decor-host-'));
    // A data "dir" that is a file: had start.ts gone on, it would fail there (and start nothing).
    notADir = path.join(dir, 'data');
    writeFileSync(notADir, '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = (HOST: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'infra/cli/src/start.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, HOST, DECOR_DATA_DIR: notADir, JWT_SECRET: '', QBO_TOKEN_KEY: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });

  it.each(['0.0.0.0', '::', '192.168.1.20', 'rentals.example'])(
    'refuses HOST=%s before starting anything',
    (host) => {
      const run = start(host);
      expect(run.stderr).toContain(
        `HOST=${host} refused: \`npm start\` runs a development copy whose demo logins have a published password, so it listens on this machine only`,
      );
      expect(run.status).toBe(1);
    },
  );

  it.each(['127.0.0.1', 'localhost', '::1', '[::1]'])(
    'lets HOST=%s through (it then goes on to the data dir)',
    (host) => {
      const run = start(host);
      expect(run.stderr).not.toContain('refused');
      // It went past the check: the data dir that is a file stopped it.
      expect(run.stderr).toMatch(/ENOTDIR|EEXIST/);
    },
  );
});
