import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

export { PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT, passwordProblem } from '@decor/contracts';

const scryptAsync = promisify(scrypt) as (
  pw: string,
  salt: Buffer,
  len: number,
  o: object,
) => Promise<Buffer>;

// scrypt is memory-hard; N=2^14, r=8 costs ~16 MiB and a few ms per hash on our machines.
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** `scrypt$<salt b64>$<hash b64>`; the password is trimmed as the spec's forms compare it trimmed. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.trim(), salt, KEY_LENGTH, PARAMS);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  // Without a stored hash we still spend the same time, so a wrong e-mail and a wrong
  // password cannot be told apart by timing.
  const [, saltB64, hashB64] = (stored ?? DUMMY_HASH).split('$');
  const expected = Buffer.from(hashB64 ?? '', 'base64');
  const actual = await scryptAsync(password.trim(), Buffer.from(saltB64 ?? '', 'base64'), KEY_LENGTH, PARAMS);
  return stored !== undefined && expected.length === actual.length && timingSafeEqual(expected, actual);
}

const DUMMY_HASH = `scrypt$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;
