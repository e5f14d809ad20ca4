/**
 * The anti-robot whitelist: client addresses (monitoring, partners, the office) whose guests skip
 * the widget. The spec's anti-robot config tells the portal `{ site_key, whitelist }`; the
 * server decides again on every request from the address it sees, never from the client's word.
 */
import { inCidr, type Cidr, parseCidr, parseIp } from '../ip-address.ts';
import type { BotCheck, BotCheckResult } from './bot-check.ts';

/** The spec's anti-robot config, as the portal reads it. */
export interface AntiRobotConfig {
  site_key: string | null;
  /** True when this client is whitelisted: no widget, the check passes server-side. */
  whitelist: boolean;
}

export class BotCheckWhitelist {
  readonly #ranges: Cidr[];

  private constructor(ranges: Cidr[]) {
    this.#ranges = ranges;
  }

  static empty(): BotCheckWhitelist {
    return new BotCheckWhitelist([]);
  }

  /**
   * From a comma-separated list of addresses and CIDR ranges. One bad entry voids the whole
   * list (nobody is whitelisted) rather than whitelisting a guess.
   */
  static parse(list: string | undefined): BotCheckWhitelist {
    const entries = (list ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const ranges: Cidr[] = [];
    for (const entry of entries) {
      const cidr = parseCidr(entry);
      if (!cidr) {
        console.error(
          `BOT_CHECK_WHITELIST: "${entry}" is not an address or range; nobody is whitelisted`,
        );
        return BotCheckWhitelist.empty();
      }
      ranges.push(cidr);
    }
    return new BotCheckWhitelist(ranges);
  }

  get size(): number {
    return this.#ranges.length;
  }

  has(remoteIp: string | null | undefined): boolean {
    const ip = remoteIp ? parseIp(remoteIp.trim()) : null;
    return ip !== null && this.#ranges.some((range) => inCidr(ip, range));
  }
}

export function antiRobotConfig(
  check: BotCheck,
  whitelist: BotCheckWhitelist,
  remoteIp: string | null | undefined,
): AntiRobotConfig {
  return { site_key: check.siteKey, whitelist: whitelist.has(remoteIp) };
}

/** A guest's check: whitelisted addresses pass without a token, everyone else is verified. */
export function verifyGuest(
  check: BotCheck,
  whitelist: BotCheckWhitelist,
  token: string | null | undefined,
  remoteIp: string | null | undefined,
): Promise<BotCheckResult> {
  if (whitelist.has(remoteIp)) return Promise.resolve({ ok: true });
  return check.verify(token, remoteIp);
}
