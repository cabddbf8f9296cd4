import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accountingSyncConfigSchema } from '@decor/accounting-sync';
import { ConfigError, loadConfig } from '@decor/kit';
import { installationJwtSecret, installationQboTokenKey } from '../src/installation-secret';

/** What `npm start` gives every service: this installation's secrets, no test flag. */
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(accountingSyncConfigSchema, env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems;
  }
};

describe("the installation's own secrets (infra/.data)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'decor-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are made once, kept private, and pass the services without the test flag', () => {
    const jwt = installationJwtSecret(dir);
    const key = installationQboTokenKey(dir);
    expect(installationJwtSecret(dir)).toBe(jwt);
    expect(installationQboTokenKey(dir)).toBe(key);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(statSync(path.join(dir, 'qbo-token-key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, 'qbo-token-key'), 'utf8').trim()).toBe(key);
    expect(problemsOf({ JWT_SECRET: jwt, QBO_TOKEN_KEY: key })).toEqual([]);
    // A second installation gets other ones.
    const other = mkdtempSync(path.join(tmpdir(), 'decor-secrets-'));
    expect(installationQboTokenKey(other)).not.toBe(key);
    rmSync(other, { recursive: true, force: true });
  });

  it('the published QuickBooks token key (the default) is refused unless the test flag is set', () => {
    const JWT_SECRET = installationJwtSecret(dir);
    expect(problemsOf({ JWT_SECRET })).toEqual([
      'QBO_TOKEN_KEY must be a secret of this installation, not the published development default (npm start keeps one in infra/.data)',
    ]);
    expect(problemsOf({ JWT_SECRET, NODE_ENV: 'test' })).toHaveLength(1);
    expect(problemsOf({ JWT_SECRET, DECOR_ALLOW_DEV_SECRETS: '1' })).toEqual([]);
  });

  it('replaces a kept value that is no longer fit (truncated or hand-edited)', () => {
    writeFileSync(path.join(dir, 'jwt-secret'), 'short\n');
    writeFileSync(path.join(dir, 'qbo-token-key'), 'not-base64\n');
    expect(installationJwtSecret(dir)).toHaveLength(64);
    expect(installationQboTokenKey(dir)).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });
});
