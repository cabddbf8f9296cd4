import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * QuickBooks tokens at rest: AES-256-GCM with the key from QBO_TOKEN_KEY, a fresh IV per value.
 * Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url); a value that was tampered with, or written
 * under another key, fails to decrypt instead of yielding garbage.
 */
export interface TokenCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function tokenCipher(base64Key: string): TokenCipher {
  const key = Buffer.from(base64Key, 'base64');
  if (key.length !== 32) throw new Error('QBO_TOKEN_KEY must be 32 bytes');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed token');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
