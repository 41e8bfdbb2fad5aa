/**
 * The one in-memory cache of the server: a small LRU of promised values that expire `maxAgeMs`
 * after they were computed (failures are not kept; identical requests while one computation runs
 * share it). With `refreshAfterMs`, an entry asked for once it is that old (but not expired) is
 * served as it is while one reload runs in the background and replaces it when it succeeds (stale
 * while revalidating): a key asked for often is never reloaded on a request's path, and no value
 * served is older than `maxAgeMs`. `clear()` forgets every value, and reloads under way are not
 * kept. Used by the library's totals, corrections and shelves, and by the micro-cache of
 * anonymous public reads (platform/read-cache.ts).
 */
export class TtlCache<T> {
  private entries = new Map<string, { at: number; value: Promise<T>; refreshing?: boolean }>();
  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 2_000,
    private readonly refreshAfterMs = Infinity,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && t - hit.at < this.maxAgeMs) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      if (t - hit.at >= this.refreshAfterMs && !hit.refreshing) {
        hit.refreshing = true;
        load().then(
          (value) => {
            // Unless the entry was replaced, dropped or cleared meanwhile.
            if (this.entries.get(key) === hit)
              this.entries.set(key, { at: t, value: Promise.resolve(value) });
          },
          () => {
            hit.refreshing = false;
          },
        );
      }
      return hit.value;
    }
    const value = load();
    const entry = { at: t, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    if (this.entries.size > this.maxEntries)
      this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  /** Forgets every value, and the computations under way (they finish for their own callers). */
  clear(): void {
    if (this.entries.size) this.entries = new Map();
  }
}
