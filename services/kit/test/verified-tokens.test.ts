/**
 * The gateway's memory of verified session tokens: bounded (least recently used out), never past a
 * token's own expiry nor 10 minutes, and never a token carrying `nbf`.
 */
import { VerifiedTokens } from '../src/http/verified-tokens';

const NOW = 1_800_000_000_000;
const claims = (exp: number, extra: object = {}) => ({ sub: 'u1', exp, ...extra });

test('a remembered token is given back until its exp, then forgotten', () => {
  const tokens = new VerifiedTokens<ReturnType<typeof claims>>(10);
  const c = claims(NOW / 1000 + 60);
  tokens.set('a', c, NOW);
  expect(tokens.get('a', NOW + 59_999)).toBe(c);
  expect(tokens.get('a', NOW + 60_000)).toBeUndefined();
  expect(tokens.get('a', NOW)).toBeUndefined(); // forgotten, not merely hidden
});

test('a long-lived token is remembered for 10 minutes at most', () => {
  const tokens = new VerifiedTokens<ReturnType<typeof claims>>(10);
  tokens.set('a', claims(NOW / 1000 + 12 * 3600), NOW);
  expect(tokens.get('a', NOW + 10 * 60_000 - 1)).toBeDefined();
  expect(tokens.get('a', NOW + 10 * 60_000)).toBeUndefined();
});

test('tokens without exp, or with nbf, are not kept', () => {
  const tokens = new VerifiedTokens<{ sub: string; exp?: number; nbf?: number }>(10);
  tokens.set('no-exp', { sub: 'u1' }, NOW);
  tokens.set('nbf', { sub: 'u1', exp: NOW / 1000 + 60, nbf: NOW / 1000 }, NOW);
  expect(tokens.get('no-exp', NOW)).toBeUndefined();
  expect(tokens.get('nbf', NOW)).toBeUndefined();
});

test('bounded: the least recently used token goes first', () => {
  const tokens = new VerifiedTokens<ReturnType<typeof claims>>(2);
  const exp = NOW / 1000 + 60;
  tokens.set('a', claims(exp), NOW);
  tokens.set('b', claims(exp), NOW);
  expect(tokens.get('a', NOW)).toBeDefined(); // a is now the most recent
  tokens.set('c', claims(exp), NOW);
  expect(tokens.get('b', NOW)).toBeUndefined();
  expect(tokens.get('a', NOW)).toBeDefined();
  expect(tokens.get('c', NOW)).toBeDefined();
});
