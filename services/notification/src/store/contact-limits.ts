import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface ContactLimitOptions {
  /** Key prefix of this installation (REDIS_PREFIX). */
  prefix: string;
  perAddress: number;
  perSender: number;
  windowSeconds: number;
}

/** Allowed, or refused with the seconds until the fuller of the two windows ends. */
export type ContactLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface ContactLimits {
  /** Counts one message from `address` (client ip) and `sender` (e-mail) and says whether it may go. */
  take(address: string, sender: string): Promise<ContactLimitVerdict>;
}

/**
 * Fixed-window counters in Redis, so every instance of the service shares them. The sender's
 * address is hashed: no visitor's e-mail sits in a Redis key.
 */
export function contactLimits(redis: Redis, opts: ContactLimitOptions): ContactLimits {
  const windowMs = opts.windowSeconds * 1000;
  const key = (kind: string, value: string) =>
    `${opts.prefix}:contact:${kind}:${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;
  return {
    async take(address, sender) {
      const byAddress = key('address', address);
      const bySender = key('sender', sender.trim().toLowerCase());
      // One round trip; NX starts a window at the first message and never extends it.
      const replies = await redis
        .multi()
        .incr(byAddress)
        .pexpire(byAddress, windowMs, 'NX')
        .pttl(byAddress)
        .incr(bySender)
        .pexpire(bySender, windowMs, 'NX')
        .pttl(bySender)
        .exec();
      const n = (i: number) => Number(replies?.[i]?.[1] ?? 0);
      const over = [
        { count: n(0), ttl: n(2), max: opts.perAddress },
        { count: n(3), ttl: n(5), max: opts.perSender },
      ].filter((c) => c.count > c.max);
      if (over.length === 0) return { allowed: true };
      const waitMs = Math.max(...over.map((c) => (c.ttl > 0 ? c.ttl : windowMs)));
      return { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
    },
  };
}
