import type { Hold } from '../domain/bookings';
import type { LedgerModel } from './ledger-model';

/**
 * Reads of the ledgers for availability answers. A busy product's ledger carries every future
 * booking of it, so each instance keeps the holds of the ledgers it read, by version: a read asks
 * only for the versions (small), and fetches the holds of the ledgers that changed since.
 */
export class LedgerReader {
  private readonly cache = new Map<string, { version: number; holds: Hold[] }>();

  constructor(
    private readonly ledgers: LedgerModel,
    private readonly capacity = 5_000,
  ) {}

  /** The holds on each of `skus` (a product without a ledger holds nothing). */
  async holdsOf(skus: readonly string[]): Promise<Map<string, Hold[]>> {
    const versions = await this.ledgers.find({ _id: { $in: skus } }, { version: 1 }).lean();
    const stale = versions.filter((v) => this.cache.get(v._id)?.version !== v.version).map((v) => v._id);
    if (stale.length > 0) {
      const fresh = await this.ledgers.find({ _id: { $in: stale } }, { version: 1, holds: 1 }).lean();
      for (const ledger of fresh) this.remember(ledger._id, ledger.version, ledger.holds);
    }
    const result = new Map<string, Hold[]>();
    for (const { _id } of versions) result.set(_id, this.cache.get(_id)?.holds ?? []);
    return result;
  }

  /** Every ledger with holds, for the conflicts list (read fresh). */
  async all(): Promise<{ sku: string; holds: Hold[] }[]> {
    const ledgers = await this.ledgers.find({ 'holds.0': { $exists: true } }, { holds: 1 }).lean();
    return ledgers.map((l) => ({ sku: l._id, holds: l.holds }));
  }

  private remember(sku: string, version: number, holds: Hold[]) {
    this.cache.delete(sku); // re-inserted last: the Map's order is the eviction order
    this.cache.set(sku, { version, holds });
    if (this.cache.size > this.capacity) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
