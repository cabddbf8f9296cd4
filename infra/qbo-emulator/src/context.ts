/** What every route of the emulator shares: the store, the options, per-realm runtime counters. */
import type { Transporter } from 'nodemailer';
import type { QboEmulatorOptions } from './emulator';
import { type CompanyState, ENTITIES, type EntityName, type Store } from './store';

export interface RealmStats {
  requests: number;
  throttled: number;
  faulted: number;
  replays: number;
  /** Requests held by a hang fault. */
  hung: number;
  grants: { authorization_code: number; refresh_token: number };
  requestsPerMinutePeak: number;
}

/** Per realm, memory only: the throttle window, injected faults and the counters. */
export interface RealmRuntime {
  /** Times (ms) of the requests let through in the last 60 s. */
  window: number[];
  fault?: { status: 500 | 503 | 429; count: number };
  downUntil: number;
  /** While set, API requests get no answer until it is over (see api.ts). */
  hang?: Hang;
  /** The last held request's turn: once a hang is over they go on one at a time, in arrival order. */
  held: Promise<void>;
  stats: RealmStats;
}

export interface Hang {
  until: number;
  /** Resolves when the hang is over (its time is up, or the fault was cleared). */
  over: Promise<void>;
  end(): void;
}

/** A hang of `ms` that `end()` cuts short. */
export function newHang(ms: number): Hang {
  let end = () => {};
  const over = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    end = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { until: Date.now() + ms, over, end };
}

export interface AuthCode {
  clientId: string;
  realmId: string;
  redirectUri: string;
  scope: string;
  expiresAt: number;
  used: boolean;
}

export const DEFAULT_ACCESS_TTL_SEC = 3600;
export const DEFAULT_REFRESH_TTL_SEC = 8_726_400;
export const DEFAULT_RATE_LIMIT = 500;

export class Ctx {
  readonly codes = new Map<string, AuthCode>();
  private readonly runtimes = new Map<string, RealmRuntime>();

  constructor(
    readonly opts: QboEmulatorOptions,
    readonly store: Store,
    readonly mailer: Transporter | undefined,
  ) {}

  company(realmId: string): CompanyState | undefined {
    return this.store.state.companies[realmId];
  }

  runtime(realmId: string): RealmRuntime {
    let r = this.runtimes.get(realmId);
    if (!r) {
      r = {
        window: [],
        downUntil: 0,
        held: Promise.resolve(),
        stats: {
          requests: 0,
          throttled: 0,
          faulted: 0,
          replays: 0,
          hung: 0,
          grants: { authorization_code: 0, refresh_token: 0 },
          requestsPerMinutePeak: 0,
        },
      };
      this.runtimes.set(realmId, r);
    }
    return r;
  }

  accessTtlSec(realmId: string): number {
    return (
      this.company(realmId)?.settings.accessTokenTtlSec ??
      this.opts.accessTokenTtlSec ??
      DEFAULT_ACCESS_TTL_SEC
    );
  }

  refreshTtlSec(): number {
    return this.opts.refreshTokenTtlSec ?? DEFAULT_REFRESH_TTL_SEC;
  }

  rateLimit(realmId: string): number {
    return (
      this.company(realmId)?.settings.rateLimitPerMinute ?? this.opts.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT
    );
  }

  documents(realmId: string): Record<EntityName, number> {
    const c = this.company(realmId);
    return Object.fromEntries(ENTITIES.map((e) => [e, c ? Object.keys(c.records[e]).length : 0])) as Record<
      EntityName,
      number
    >;
  }
}
