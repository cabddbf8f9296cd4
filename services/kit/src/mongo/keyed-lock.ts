/**
 * Runs tasks one at a time per key inside this process. Writes of one key (a customer's carts, a product's bookings) queue here
 * instead of racing each other on the revision check, so parallel requests to one instance all
 * succeed; instances still guard each other with the revision (optimistic concurrency).
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => {},
      () => {},
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
