/**
 * Group commit per product: changes of one ledger that arrive while a write of it is under way wait,
 * and the next write takes all of them at once — one read and one guarded write for the lot, each
 * change computed on the holds the ones before it left. Two hundred customers racing for a product
 * are then a handful of writes, not two hundred in a row. Instances still guard each other with the
 * ledger's version.
 */
export class KeyedBatches<T, R> {
  private readonly waiting = new Map<string, { item: T; resolve(r: R): void; reject(e: unknown): void }[]>();
  private readonly running = new Set<string>();

  constructor(private readonly apply: (key: string, items: T[]) => Promise<R[]>) {}

  add(key: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.waiting.get(key) ?? [];
      queue.push({ item, resolve, reject });
      this.waiting.set(key, queue);
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let batch = this.waiting.get(key); batch?.length; batch = this.waiting.get(key)) {
        this.waiting.delete(key);
        try {
          const results = await this.apply(
            key,
            batch.map((b) => b.item),
          );
          for (const [i, b] of batch.entries()) b.resolve(results[i] as R);
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.running.delete(key);
    }
  }
}
