/**
 * The redirect's lookup cache: domain + alias → link (or "no such link"), LRU-bounded, with a
 * TTL, one load per key at a time, and invalidation that makes a changed destination visible
 * within one second on every instance.
 *
 * Invalidation (the database side belongs to the links migrations; this is the contract):
 *
 *   1. A change counter the cache can read: a one-row table `app.link_cache_epoch(epoch bigint)`
 *      bumped by a statement-level trigger after insert/update/delete on the aliases and domains
 *      tables. A row update (not a sequence: nextval is visible before commit) becomes visible
 *      together with the change it counts, so whoever sees the new epoch also sees the new data.
 *   2. The same trigger runs `pg_notify('link_cache', json_build_object('epoch', <new epoch>,
 *      'key', <domain>/<alias>)::text)` per changed link (NOTIFY is delivered at commit).
 *
 * Each instance then:
 *   - LISTENs on `link_cache` (see cache-invalidation.ts) and drops the named key at once
 *     (`applyChange`). A notification whose epoch is not exactly the next one means some were
 *     missed (the listener reconnected, the instance was asleep): everything is dropped.
 *   - Before serving from cache, makes sure it read the epoch less than `epochCheckMs` (1 s)
 *     ago; a different epoch drops everything. This bounds staleness to one second even when
 *     notifications are lost, at the cost of one tiny query per instance per second under load.
 *   - Keeps entries at most `ttlMs` whatever happens (a last resort, e.g. if the epoch cannot be
 *     read while the database is down: cached links keep redirecting meanwhile).
 */

export interface LinkCacheOptions {
  /** Reads the current change counter (e.g. `select epoch from app.link_cache_epoch`). */
  readEpoch: () => Promise<bigint | number | string>;
  /** Most entries kept; the least recently used go first (default 10 000). */
  maxEntries?: number;
  /** Longest an entry is kept (default 60 000 ms). */
  ttlMs?: number;
  /** Longest a "no such link" answer is kept (default 5 000 ms). */
  negativeTtlMs?: number;
  /** Entries are served only if the epoch was read less than this long ago (default 1 000 ms). */
  epochCheckMs?: number;
  now?: () => number;
}

export interface LinkChange {
  /** The epoch after the change. */
  epoch: bigint | number | string;
  /** The changed link's key, or none for "anything may have changed". */
  key?: string;
}

export interface LinkCacheStats {
  size: number;
  hits: number;
  misses: number;
  /** Times everything was dropped (epoch moved on unannounced, or a notification gap). */
  resets: number;
}

interface Entry<V> {
  value: V | null;
  expiresAt: number;
}

/** Our cache key: the host in lower case (DNS is case-insensitive), the alias as given. */
export const linkCacheKey = (domain: string, alias: string) =>
  `${domain.toLowerCase().replace(/\.$/, '')}/${alias}`;

export class LinkCache<V> {
  readonly #readEpoch: () => Promise<bigint | number | string>;
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #negativeTtlMs: number;
  readonly #epochCheckMs: number;
  readonly #now: () => number;

  /** Map order is recency order: the first key is the least recently used. */
  readonly #entries = new Map<string, Entry<V>>();
  readonly #loading = new Map<string, Promise<V | null>>();
  #epoch: bigint | undefined;
  #epochReadAt = Number.NEGATIVE_INFINITY;
  #epochCheck: Promise<void> | undefined;
  #hits = 0;
  #misses = 0;
  #resets = 0;

  constructor(options: LinkCacheOptions) {
    this.#readEpoch = options.readEpoch;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.#epochCheckMs = options.epochCheckMs ?? 1_000;
    this.#now = options.now ?? Date.now;
    if (!Number.isInteger(this.#maxEntries) || this.#maxEntries < 1)
      throw new RangeError(`maxEntries must be a positive integer, not ${this.#maxEntries}`);
  }

  /**
   * The cached answer for `key` (null: no such link) when `get` would serve it from the cache
   * without waiting for anything (the epoch read recently, the entry within its TTL), else
   * undefined. A redirect's hot path: a hit costs no promise.
   */
  cached(key: string): V | null | undefined {
    const now = this.#now();
    if (now - this.#epochReadAt >= this.#epochCheckMs) return undefined;
    const entry = this.#entries.get(key);
    if (!entry || entry.expiresAt <= now) return undefined;
    this.#touch(key, entry);
    return entry.value;
  }

  /** The cached link, or what `load` finds (null: no such link), loaded once per key at a time. */
  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    await this.#ensureFreshEpoch();
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > this.#now()) {
      this.#touch(key, entry);
      return entry.value;
    }
    if (entry) this.#entries.delete(key);
    this.#misses++;
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const loading = load().then(
      (value) => {
        // An invalidation while loading replaced or removed this load: its answer may be stale.
        if (this.#loading.get(key) === loading) {
          this.#loading.delete(key);
          this.#store(key, value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.#loading.get(key) === loading) this.#loading.delete(key);
        throw error;
      },
    );
    this.#loading.set(key, loading);
    return loading;
  }

  /** Forgets one link (its destination, status or expiry changed, or it was deleted). */
  invalidate(key: string): void {
    this.#entries.delete(key);
    this.#loading.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
    this.#loading.clear();
    this.#resets++;
  }

  /** A change notification (LISTEN): drops its key, or everything when some were missed. */
  applyChange(change: LinkChange): void {
    const epoch = BigInt(change.epoch);
    const consecutive = this.#epoch !== undefined && epoch === this.#epoch + 1n;
    if (consecutive && change.key !== undefined) {
      this.invalidate(change.key);
    } else if (this.#epoch === undefined || epoch > this.#epoch) {
      this.clear();
    }
    if (this.#epoch === undefined || epoch > this.#epoch) this.#epoch = epoch;
  }

  stats(): LinkCacheStats {
    return {
      size: this.#entries.size,
      hits: this.#hits,
      misses: this.#misses,
      resets: this.#resets,
    };
  }

  /** A hit: the entry becomes the most recently used. */
  #touch(key: string, entry: Entry<V>) {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#hits++;
  }

  #store(key: string, value: V | null) {
    const ttl = value === null ? this.#negativeTtlMs : this.#ttlMs;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#now() + ttl });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  #ensureFreshEpoch(): Promise<void> {
    if (this.#now() - this.#epochReadAt < this.#epochCheckMs) return Promise.resolve();
    this.#epochCheck ??= (async () => {
      // The time the question was asked: anything committed after it may not be in the answer.
      const askedAt = this.#now();
      try {
        const epoch = BigInt(await this.#readEpoch());
        if (this.#epoch !== undefined && epoch !== this.#epoch) this.clear();
        this.#epoch = epoch;
      } catch (error) {
        // The database is unreachable: keep serving what is cached (within its TTL) rather
        // than failing every redirect; ask again after the interval.
        console.error('Link cache: could not read the change epoch:', error);
      } finally {
        this.#epochReadAt = askedAt;
        this.#epochCheck = undefined;
      }
    })();
    return this.#epochCheck;
  }
}
