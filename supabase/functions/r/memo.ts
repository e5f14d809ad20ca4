/**
 * A bounded memo for the click writer's per-value work (User-Agent parsing, country lookup, IP
 * hashing): the same few values come back again and again, so a small map saves most of the
 * work; least recently used values leave first.
 */
export class Memo<V> {
  readonly #values = new Map<string, V>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`maxEntries must be a positive integer, not ${maxEntries}`);
    this.#maxEntries = maxEntries;
  }

  get(key: string, compute: (key: string) => V): V {
    const known = this.#values.get(key);
    if (known !== undefined) {
      this.#values.delete(key);
      this.#values.set(key, known);
      return known;
    }
    const value = compute(key);
    this.#values.set(key, value);
    if (this.#values.size > this.#maxEntries) {
      const oldest = this.#values.keys().next().value;
      if (oldest !== undefined) this.#values.delete(oldest);
    }
    return value;
  }

  /** The value held for `key`, if any, without making it the most recently used. */
  peek(key: string): V | undefined {
    return this.#values.get(key);
  }

  /** Replaces the value held for `key` (it keeps its place); a key not held is left out. */
  replace(key: string, value: V): void {
    if (this.#values.has(key)) this.#values.set(key, value);
  }

  get size(): number {
    return this.#values.size;
  }
}
