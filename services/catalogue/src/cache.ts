/**
 * In-process cache of the catalogue's public read answers (product lists, products, images,
 * categories), ready-serialised, keyed by viewer class and request URL.
 *
 * Why it stays correct:
 * - This instance's own writes call `invalidate()` right after the database write.
 * - Other instances' writes reach every instance as catalogue events: each instance reads the
 *   catalogue topic in a consumer group of its own (see cache-invalidation.ts), and any event
 *   clears the cache. Reads are far more frequent than catalogue changes, so clearing everything
 *   is simpler than tracking which answers an event touches, at no real cost.
 * - A read that started before an invalidation does not store its (possibly old) answer: the
 *   cache has a generation number, bumped by every invalidation, and a miss only stores its
 *   answer when the generation is still the one it started under.
 * - Entries also expire after a TTL, which bounds staleness if the events ever stop arriving.
 * Concurrent misses for one key share one database read (no stampede on a cold cache).
 */
export interface CachedAnswer {
  /** The JSON body, serialised once. */
  body: string;
  headers: Record<string, string>;
}

interface Entry extends CachedAnswer {
  expiresAt: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly inflight = new Map<string, Promise<CachedAnswer>>();
  private generation = 0;
  hits = 0;
  misses = 0;

  /** Bounded by count and by size, so a client walking through endless query strings cannot fill the heap. */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** The cached answer for `key`, or the one `produce` makes (stored unless invalidated meanwhile). */
  async get(key: string, produce: () => Promise<CachedAnswer>): Promise<CachedAnswer> {
    if (this.ttlMs === 0) return produce();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > Date.now()) {
      this.hits += 1;
      return entry;
    }
    this.misses += 1;
    const running = this.inflight.get(key);
    if (running) return running;
    const startedAt = this.generation;
    const promise = produce().then((answer) => {
      if (this.generation === startedAt) this.store(key, answer);
      return answer;
    });
    this.inflight.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.inflight.get(key) === promise) this.inflight.delete(key);
    }
  }

  /** Forget everything: the catalogue changed (here or in another instance). */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.bytes = 0;
    // Reads in flight started before the change: later callers must not join them.
    this.inflight.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, answer: CachedAnswer): void {
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
