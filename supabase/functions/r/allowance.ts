/**
 * Whether an account's links may still redirect this month (plan option max_redirects), known
 * without a database round trip per request: a link's cached facts say what the database said
 * when the link was loaded, and every click batch written answers the state of its accounts
 * (app.record_clicks). The newer of the two wins.
 *
 * So a limit is noticed one batch after it is reached (an instance overshoots by at most the
 * redirects of one flush interval). A changed limit or overage switch is announced (NOTIFY
 * account_limits) and asked again at once; a new month unblocks once the account's links are
 * reloaded (the link cache's TTL, 60 s).
 */
import type { Sql } from '../_shared/sql.ts';
import type { LinkFacts } from './resolve.ts';

interface Known {
  blocked: boolean;
  at: number;
}

/** Past this many accounts the learned states are forgotten (the links' own facts remain). */
const MAX_ACCOUNTS = 100_000;

export class RedirectAllowance {
  readonly #accounts = new Map<string, Known>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** What a written batch said about its accounts. */
  learn(states: Iterable<{ account_id: string; redirects_blocked: boolean }>): void {
    const at = this.#now();
    for (const state of states) {
      if (this.#accounts.size >= MAX_ACCOUNTS && !this.#accounts.has(state.account_id))
        this.#accounts.clear();
      this.#accounts.set(state.account_id, { blocked: state.redirects_blocked, at });
    }
  }

  isBlocked(link: Pick<LinkFacts, 'accountId' | 'redirectsBlocked' | 'loadedAt'>): boolean {
    if (link.accountId === null) return false;
    const known = this.#accounts.get(link.accountId);
    return known && known.at >= link.loadedAt ? known.blocked : link.redirectsBlocked;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Asks the database again about each account whose max_redirects limit or overage changed. */
export function watchAccountLimits(sql: Sql, allowance: RedirectAllowance) {
  return sql.listen('account_limits', (accountId) => {
    if (!UUID.test(accountId)) return;
    sql<{ account_id: string; redirects_blocked: boolean }[]>`
      select ${accountId}::uuid::text as account_id,
        app.redirects_blocked(${accountId}::uuid) as redirects_blocked`.then(
      (states) => allowance.learn(states),
      (error: unknown) => console.error('Redirect allowance: could not read a limit:', error),
    );
  });
}
