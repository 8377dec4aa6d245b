// Why: git objects are immutable and named by their hash, so parsed trees and commits can be
// cached forever without invalidation; only memory needs a bound. A Map kept in recency order is
// all the LRU this needs.

/**
 * A least-recently-used map whose entries' total weight stays at most `capacity` (each entry
 * weighs 1 unless a `weigh` function says otherwise, e.g. a tree weighs its entry count).
 */
export class BoundedCache<K, V> {
  readonly #capacity: number;
  readonly #weigh: (value: V) => number;
  readonly #entries = new Map<K, V>();
  #weight = 0;

  constructor(capacity: number, weigh: (value: V) => number = () => 1) {
    this.#capacity = capacity;
    this.#weigh = weigh;
  }

  /** The cached value (marking it recently used), or undefined. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Cache `value`, evicting the least recently used entries while over capacity. */
  set(key: K, value: V): void {
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#entries.delete(key);
      this.#weight -= this.#weigh(previous);
    }
    this.#entries.set(key, value);
    this.#weight += this.#weigh(value);
    while (this.#weight > this.#capacity && this.#entries.size > 1) {
      const oldest = this.#entries.entries().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value[0]);
      this.#weight -= this.#weigh(oldest.value[1]);
    }
  }

  /** Drop everything. */
  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }
}
