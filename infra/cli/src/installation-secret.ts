import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A secret of this installation: made on the first `npm start`, kept with the local data
 * (`<data dir>/<file>`, mode 0600; never in the repository) and read on every later start, so what
 * it signs or encrypts survives a restart and no published value does either. A kept value that
 * `fits` not (truncated, hand-edited) is replaced.
 */
function installationSecret(
  dataDir: string,
  file: string,
  make: () => string,
  fits: (kept: string) => boolean,
) {
  const where = path.join(dataDir, file);
  try {
    const kept = readFileSync(where, 'utf8').trim();
    if (fits(kept)) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = make();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(where, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The JWT secret (`jwt-secret`): 48 random bytes, base64url (the services want 32 or more). */
export function installationJwtSecret(dataDir: string): string {
  return installationSecret(
    dataDir,
    'jwt-secret',
    () => randomBytes(48).toString('base64url'),
    (kept) => kept.length >= 64 && new Set(kept).size >= 10,
  );
}

/** The QuickBooks token-encryption key (`qbo-token-key`): 32 random bytes, base64 (QBO_TOKEN_KEY). */
export function installationQboTokenKey(dataDir: string): string {
  return installationSecret(
    dataDir,
    'qbo-token-key',
    () => randomBytes(32).toString('base64'),
    (kept) => /^[A-Za-z0-9+/]{43}=$/.test(kept),
  );
}
