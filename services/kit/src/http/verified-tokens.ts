/**
 * Session tokens already verified, keyed by the token string itself: a token seen again skips the
 * signature check and the claim checks until its own expiry (10 minutes at most), as fast-jwt's own
 * cache would, without hashing the token (sha256) on every request to make its key. Bounded, least
 * recently used first out. Only tokens that passed every check are kept, so a refusal (forged,
 * expired, wrong audience, wrong claims) is judged afresh each time; session-version refusals are
 * asked of the caller's SessionCheck on every request, never remembered.
 */
const MAX_REMEMBERED_MS = 10 * 60_000;

export class VerifiedTokens<C extends { exp?: unknown; nbf?: unknown }> {
  private readonly entries = new Map<string, { claims: C; until: number }>();

  constructor(private readonly size: number) {}

  /** The claims of a token verified before and not expired since; undefined otherwise. */
  get(token: string, now = Date.now()): C | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.entries.delete(token);
    if (now >= entry.until) return undefined;
    this.entries.set(token, entry); // most recently used last
    return entry.claims;
  }

  /** Remembers a token that passed verification (one with `nbf`, unused by this product, is not kept). */
  set(token: string, claims: C, now = Date.now()): void {
    if (typeof claims.exp !== 'number' || claims.nbf !== undefined) return;
    this.entries.delete(token);
    this.entries.set(token, { claims, until: Math.min(claims.exp * 1000, now + MAX_REMEMBERED_MS) });
    if (this.entries.size > this.size) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
