/**
 * The emulator's state: companies (realms) with their records, and OAuth grants and tokens.
 * Kept in memory; with a data file it is loaded at start and written atomically (tmp + rename),
 * debounced, and flushed on close.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const ENTITIES = ['Customer', 'Item', 'Estimate', 'Invoice', 'Payment', 'RefundReceipt'] as const;
export type EntityName = (typeof ENTITIES)[number];

/** A QBO record as JSON. */
export type Rec = Record<string, unknown>;

export interface CompanyState {
  realmId: string;
  name: string;
  createdAt: string;
  /** Next Id per entity (Intuit numbers each list on its own). */
  nextId: Record<EntityName, number>;
  records: Record<EntityName, Record<string, Rec>>;
  settings: { rateLimitPerMinute?: number; accessTokenTtlSec?: number };
  /** requestid → the first response, oldest first (bounded). */
  replays: Record<string, { status: number; body: unknown }>;
}

/** One connection of the app to a company: every token issued from one consent. */
export interface Grant {
  id: string;
  clientId: string;
  realmId: string;
  scope: string;
  createdAt: number;
  revoked: boolean;
}

export interface AccessToken {
  grantId: string;
  expiresAt: number;
}

export interface RefreshToken {
  grantId: string;
  expiresAt: number;
  /** When a newer refresh token replaced this one; it keeps working for 24 h after. */
  supersededAt?: number;
}

export interface EmulatorState {
  companies: Record<string, CompanyState>;
  grants: Record<string, Grant>;
  accessTokens: Record<string, AccessToken>;
  refreshTokens: Record<string, RefreshToken>;
}

export const MAX_REPLAYS_PER_REALM = 1000;

export const randomToken = (bytes: number) => randomBytes(bytes).toString('base64url');

export function newCompany(realmId: string, name: string): CompanyState {
  return {
    realmId,
    name,
    createdAt: new Date().toISOString(),
    nextId: { Customer: 1, Item: 1, Estimate: 1, Invoice: 1, Payment: 1, RefundReceipt: 1 },
    records: { Customer: {}, Item: {}, Estimate: {}, Invoice: {}, Payment: {}, RefundReceipt: {} },
    settings: {},
    replays: {},
  };
}

/** A realm id like Intuit's: 16 digits starting with 9. */
export function newRealmId(taken: Record<string, unknown>): string {
  for (;;) {
    const id = `9${Array.from(randomBytes(15), (b) => String(b % 10)).join('')}`;
    if (!taken[id]) return id;
  }
}

export class Store {
  state: EmulatorState = { companies: {}, grants: {}, accessTokens: {}, refreshTokens: {} };
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly file?: string) {
    if (file && existsSync(file)) {
      this.state = { ...this.state, ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<EmulatorState>) };
      // A data file written before an entity was emulated lacks its list.
      for (const c of Object.values(this.state.companies)) {
        for (const e of ENTITIES) {
          c.records[e] ??= {};
          c.nextId[e] ??= 1;
        }
      }
    }
  }

  /** Schedules a write (~200 ms later, one write for a burst of changes). */
  changed(): void {
    if (!this.file || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, 200);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.file) return;
    this.prune();
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, this.file); // a crash mid-write never leaves half a file
  }

  /** Drops tokens that can never be accepted again, so the file does not grow without end. */
  private prune(): void {
    const now = Date.now();
    const { accessTokens, refreshTokens, grants } = this.state;
    for (const [t, a] of Object.entries(accessTokens)) {
      if (a.expiresAt < now - 3_600_000 || grants[a.grantId]?.revoked !== false) delete accessTokens[t];
    }
    for (const [t, r] of Object.entries(refreshTokens)) {
      const dead = r.expiresAt < now || (r.supersededAt !== undefined && r.supersededAt < now - 86_400_000);
      if (dead || grants[r.grantId]?.revoked !== false) delete refreshTokens[t];
    }
  }
}

/** Intuit's timestamps: local time with the UTC offset, e.g. 2020-09-29T05:58:07-07:00. */
export function qboTime(date = new Date(), withMillis = false): string {
  const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
  const off = -date.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const base = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${base}${withMillis ? `.${pad(date.getMilliseconds(), 3)}` : ''}${sign}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`;
}

/** YYYY-MM-DD in local time, `days` from `from`. */
export function localDate(from = new Date(), days = 0): string {
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
