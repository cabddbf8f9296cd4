/**
 * In-process cache of ready-serialised read answers, keyed by whatever the caller says makes an
 * answer differ (viewer class and request URL for HTTP reads). The catalogue service caches its
 * public reads with it, the gateway its proxied catalogue reads.
 *
 * Why it stays correct:
 * - The owner's own writes call `invalidate()` right after the database write.
 * - Other processes' writes reach every process as events: each process reads the topic in a
 *   consumer group of its own (see broadcast-invalidation.ts), and any event that may change an
 *   answer clears the cache. Reads are far more frequent than changes, so clearing everything is
 *   simpler than tracking which answers an event touches, at no real cost.
 * - A read that started before an invalidation does not store its (possibly old) answer: the
 *   cache has a generation number, bumped by every invalidation, and a miss only stores its
 *   answer when the generation is still the one it started under.
 * - Entries also expire after a TTL, which bounds staleness if the events ever stop arriving.
 * Concurrent misses for one key share one read (no stampede on a cold cache).
 */
export interface CachedAnswer {
  /** The body, serialised once. */
  body: string;
  headers: Record<string, string>;
}

export interface CacheGetOptions<A> {
  /** Whether this answer may be kept (default: every answer `produce` resolves with; a rejection never is). */
  store?: (answer: A) => boolean;
  /**
   * Skip the stored answer and the reads already in flight (they may predate what the caller knows
   * changed): make a new one, stored as any miss is. For a caller's "no-cache" request.
   */
  refresh?: boolean;
}

type Entry<A> = A & { expiresAt: number };

export class ResponseCache<A extends CachedAnswer = CachedAnswer> {
  private readonly entries = new Map<string, Entry<A>>();
  private bytes = 0;
  private readonly inflight = new Map<string, Promise<A>>();
  private generation = 0;
  private readonly followers: (() => void)[] = [];
  hits = 0;
  misses = 0;

  /** Bounded by count and by size, so a client walking through endless query strings cannot fill the heap. */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** Whether answers are kept at all (a TTL of 0 turns the cache off). */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The cached answer for `key`, or the one `produce` makes (stored unless invalidated meanwhile). */
  async get(key: string, produce: () => Promise<A>, options: CacheGetOptions<A> = {}): Promise<A> {
    if (this.ttlMs === 0) return produce();
    if (!options.refresh) {
      const entry = this.entries.get(key);
      if (entry && entry.expiresAt > Date.now()) {
        this.hits += 1;
        return entry;
      }
    }
    this.misses += 1;
    const running = options.refresh ? undefined : this.inflight.get(key);
    if (running) return running;
    const startedAt = this.generation;
    const keep = options.store ?? (() => true);
    const promise = produce().then((answer) => {
      if (this.generation === startedAt && keep(answer)) this.store(key, answer);
      return answer;
    });
    this.inflight.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.inflight.get(key) === promise) this.inflight.delete(key);
    }
  }

  /** Forget everything: the data behind the answers changed (here or in another process). */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.bytes = 0;
    // Reads in flight started before the change: later callers must not join them.
    this.inflight.clear();
    for (const follower of this.followers) follower();
  }

  /** Also run `listener` on every invalidation (a cache of answers made from this one's). */
  onInvalidate(listener: () => void): void {
    this.followers.push(listener);
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, answer: A): void {
    this.remove(key);
    this.entries.set(key, { ...answer, expiresAt: Date.now() + this.ttlMs });
    this.bytes += answer.body.length;
    // Oldest first (Map keeps insertion order).
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.body.length;
    this.entries.delete(key);
  }
}
