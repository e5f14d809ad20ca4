/**
 * The staff's IP blocks (public.ip_blocks), held in memory so that refusing a blocked visitor
 * costs no database round trip: reloaded when the table changes (NOTIFY ip_blocks) and every
 * `refreshMs` (blocks expire by time, not by a change).
 *
 * Every address of the request's X-Forwarded-For chain is checked, not just the one a proxy
 * believes is the client: entries on the left may be written by the client, but the address the
 * edge proxy saw is always in the chain, so a blocked network cannot hide behind a made-up
 * entry (a made-up blocked entry only refuses the request that carries it).
 */
import { type Cidr, canonicalIp, inCidr, parseCidr, parseIp } from '../_shared/ip-address.ts';
import type { Sql } from '../_shared/sql.ts';

export class IpBlockList {
  readonly #load: () => Promise<string[]>;
  #addresses = new Set<string>();
  #ranges: Cidr[] = [];
  #refreshing: Promise<void> | undefined;
  #again = false;

  constructor(load: () => Promise<string[]>) {
    this.#load = load;
  }

  /** Reloads the list; a reload asked for while one runs runs once more after it. */
  refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#again = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      try {
        do {
          this.#again = false;
          this.#replace(await this.#load());
        } while (this.#again);
      } catch (error) {
        // Keep the last list: a database hiccup must neither block everyone nor unblock anyone.
        console.error('IP blocks: could not load the list:', error);
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  #replace(blocks: string[]) {
    const addresses = new Set<string>();
    const ranges: Cidr[] = [];
    for (const block of blocks) {
      const cidr = parseCidr(block);
      if (!cidr) continue;
      const whole = cidr.bits === (cidr.address.version === 4 ? 32 : 128);
      if (whole) addresses.add(canonicalIp(block.split('/')[0] ?? '') ?? block);
      else ranges.push(cidr);
    }
    this.#addresses = addresses;
    this.#ranges = ranges;
  }

  get size(): number {
    return this.#addresses.size + this.#ranges.length;
  }

  /** True when any address in the X-Forwarded-For chain (or X-Real-IP) is blocked. */
  isBlocked(headers: Headers): boolean {
    if (this.size === 0) return false;
    const entries = [
      ...(headers.get('x-forwarded-for') ?? '').split(','),
      headers.get('x-real-ip') ?? '',
    ];
    for (const entry of entries) {
      const canonical = canonicalIp(entry);
      if (!canonical) continue;
      if (this.#addresses.has(canonical)) return true;
      const ip = this.#ranges.length > 0 ? parseIp(canonical) : null;
      if (ip && this.#ranges.some((range) => inCidr(ip, range))) return true;
    }
    return false;
  }
}

/** The blocks in force now, as CIDR text. */
export function loadIpBlocks(sql: Sql) {
  return async (): Promise<string[]> => {
    const rows = await sql<{ range: string }[]>`
      select b.range::text as range from public.ip_blocks b
      where b.expires_at is null or b.expires_at > now()`;
    return rows.map((row) => row.range);
  };
}
