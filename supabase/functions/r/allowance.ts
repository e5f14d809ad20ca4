/**
 * Whether an account's links may still redirect this month (plan option max_redirects), known
 * without a database round trip on the request's path:
 * - an account seen for the first time, or not asked about for `ttlMs`, is asked about in the
 *   background (app.redirects_blocked, the accounts of one moment in one query) while its
 *   request goes on with what is known (nothing yet: not blocked);
 * - every click batch written answers the state of its accounts (app.record_clicks);
 * - a changed limit or overage switch is announced (NOTIFY account_limits) and asked again.
 *
 * So a limit is noticed one batch after it is reached: an instance overshoots by at most the
 * redirects of one flush interval (and an account already over its limit gets the redirects
 * served before its first answer comes back). A new month unblocks within `ttlMs`.
 */
import type { Sql } from '../_shared/sql.ts';

export interface AccountState {
  account_id: string;
  redirects_blocked: boolean;
}

interface Known {
  blocked: boolean;
  at: number;
}

export interface AllowanceOptions {
  /** Asks the database about these accounts. */
  check: (accountIds: string[]) => Promise<AccountState[]>;
  /** How long an answer is trusted before it is asked again (default 60 000 ms). */
  ttlMs?: number;
  now?: () => number;
}

/** Past this many accounts, what was learned is forgotten (and asked again as needed). */
const MAX_ACCOUNTS = 100_000;

export class RedirectAllowance {
  readonly #check: (accountIds: string[]) => Promise<AccountState[]>;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #accounts = new Map<string, Known>();
  /** Accounts to ask about in the next check, and those being asked about now. */
  readonly #wanted = new Set<string>();
  readonly #asking = new Set<string>();
  #scheduled = false;

  constructor({ check, ttlMs = 60_000, now = Date.now }: AllowanceOptions) {
    this.#check = check;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** What the database said about these accounts (a batch written, a check answered). */
  learn(states: Iterable<AccountState>): void {
    const at = this.#now();
    for (const state of states) {
      if (this.#accounts.size >= MAX_ACCOUNTS && !this.#accounts.has(state.account_id))
        this.#accounts.clear();
      this.#accounts.set(state.account_id, { blocked: state.redirects_blocked, at });
    }
  }

  /** Asks again about an account at the next opportunity (its limit changed). */
  recheck(accountId: string): void {
    this.#want(accountId);
  }

  isBlocked(accountId: string | null): boolean {
    if (accountId === null) return false;
    const known = this.#accounts.get(accountId);
    const stale = !known || this.#now() - known.at > this.#ttlMs;
    if (stale && !this.#asking.has(accountId)) this.#want(accountId);
    return known?.blocked ?? false;
  }

  #want(accountId: string) {
    this.#wanted.add(accountId);
    if (this.#scheduled) return;
    this.#scheduled = true;
    // Once the current burst of requests has run: one query for all the accounts it met.
    setTimeout(() => void this.#ask(), 0);
  }

  async #ask() {
    this.#scheduled = false;
    const ids = [...this.#wanted];
    this.#wanted.clear();
    for (const id of ids) this.#asking.add(id);
    try {
      this.learn(await this.#check(ids));
    } catch (error) {
      console.error('Redirect allowance: could not read the accounts’ limits:', error);
    } finally {
      for (const id of ids) this.#asking.delete(id);
    }
    // Rechecks asked for while this check ran (it may have read the state before the change).
    if (this.#wanted.size > 0 && !this.#scheduled) {
      this.#scheduled = true;
      setTimeout(() => void this.#ask(), 0);
    }
  }
}

export function checkAccounts(sql: Sql) {
  return async (accountIds: string[]): Promise<AccountState[]> => [
    ...(await sql<AccountState[]>`
      select a.id::text as account_id, app.redirects_blocked(a.id) as redirects_blocked
      from unnest(${accountIds}::uuid[]) as a(id)`),
  ];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Asks again about each account whose max_redirects limit or overage switch changed. */
export function watchAccountLimits(sql: Sql, allowance: RedirectAllowance) {
  return sql.listen('account_limits', (accountId) => {
    if (UUID.test(accountId)) allowance.recheck(accountId);
  });
}
