import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Permissions } from '@decor/kit';

/**
 * One-use, short-lived credentials for `GET /api/orders/events?ticket=…`. A browser's EventSource
 * cannot send an Authorization header, and a session token in a URL ends up in access logs, proxy
 * logs and browser history, where it stays valid for hours. A ticket is worth little there: it
 * lives 60 s, opens one read-only stream of status changes (no order contents), and is refused the
 * second time it is shown to the same gateway instance.
 *
 * Format: `<payload>.<signature>`, both base64url; the payload is JSON `{ v, sub, perm, exp, sexp,
 * jti }` (expiries in ms since the epoch: the ticket's own and the session's), the signature an
 * HMAC-SHA256 under a key derived from JWT_SECRET for this purpose only, so a ticket is never a
 * valid session token (it is not a JWT, and the key differs) and every instance can check it.
 *
 * Trade-off: "once" is enforced in each instance's memory (a map of used ticket ids until they
 * expire), not across instances, which would need a shared store on the stream's path. A ticket
 * copied out of a log within its 60 s could therefore open at most one more stream on each OTHER
 * gateway instance; that stream shows only which of that user's orders changed, and ends with the
 * session. The session token itself never appears in a URL.
 */
export const TICKET_TTL_MS = 60_000;
const KEY_LABEL = 'decor gateway order-stream ticket v1';

export interface TicketClaims {
  v: 1;
  /** The user id. */
  sub: string;
  perm: Permissions;
  /** The ticket's expiry, ms since the epoch. */
  exp: number;
  /** The session's expiry (ms), if the session token had one: the stream ends with the session. */
  sexp?: number;
  /** The session's version: the ticket ends with the session (a sign-out, a password change). */
  sv?: number;
  jti: string;
}

export type TicketRefusal = 'malformed' | 'forged' | 'expired' | 'used';

export class StreamTickets {
  private readonly key: Buffer;
  /** Ticket ids this instance has accepted, until they expire. */
  private readonly used = new Map<string, number>();

  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac('sha256', secret).update(KEY_LABEL).digest();
  }

  issue(
    user: { id: string; permissions: Permissions; sessionVersion?: number },
    sessionExpiresAt?: number,
  ): TicketClaims & { ticket: string } {
    const now = this.now();
    const claims: TicketClaims = {
      v: 1,
      sub: user.id,
      perm: user.permissions,
      exp: Math.min(now + TICKET_TTL_MS, sessionExpiresAt ?? Number.POSITIVE_INFINITY),
      ...(sessionExpiresAt === undefined ? {} : { sexp: sessionExpiresAt }),
      ...(user.sessionVersion === undefined ? {} : { sv: user.sessionVersion }),
      jti: randomBytes(12).toString('base64url'),
    };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { ...claims, ticket: `${body}.${this.sign(body)}` };
  }

  /** Checks the ticket without using it up. */
  check(ticket: string): TicketClaims | TicketRefusal {
    const [body, signature, extra] = ticket.split('.');
    if (!body || !signature || extra !== undefined) return 'malformed';
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'forged';
    let claims: TicketClaims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TicketClaims;
    } catch {
      return 'malformed';
    }
    if (
      !claims ||
      typeof claims !== 'object' ||
      claims.v !== 1 ||
      typeof claims.sub !== 'string' ||
      typeof claims.jti !== 'string'
    )
      return 'malformed';
    if (typeof claims.exp !== 'number' || claims.exp <= this.now()) return 'expired';
    if (this.used.has(claims.jti)) return 'used';
    return claims;
  }

  /** Uses the ticket up on this instance (call right after a successful `check`, before any await). */
  consume(claims: TicketClaims): void {
    this.used.set(claims.jti, claims.exp);
  }

  /** Forgets used tickets that have expired anyway (they are refused as expired). */
  sweep(): void {
    const now = this.now();
    for (const [jti, exp] of this.used) if (exp <= now) this.used.delete(jti);
  }

  get usedCount(): number {
    return this.used.size;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
