/**
 * `GET subscriptions` (app-shell 7): an account's plan subscriptions, optionally of one billing
 * type — the person's own (`/subscriptions`), a team's (`/organization/{org}/team/{team}/
 * subscriptions`) or an organization's (`/organization/{org}/subscriptions`):
 *
 *   200 { data: { current, future, past } }   current: the plan now (a grace period counts),
 *       future: the pending downgrade, past: ended ones, newest first; each a subscription row
 *
 * Who may ask is the billing function's usual rule (app.billing_account, as the caller).
 */
import { json } from '../_shared/http.ts';
import { invalid } from '../_shared/kiosk/request.ts';
import type { Sql } from '../_shared/sql.ts';
import { billingAccount, PERSONAL, type BillingScope } from './account.ts';
import { SUBSCRIPTION_COLUMNS } from './lifecycle.ts';

function scopeOf(path: string): BillingScope | null {
  if (path === '/subscriptions') return PERSONAL;
  const team = /^\/organization\/([^/]+)\/team\/([^/]+)\/subscriptions$/.exec(path);
  if (team) return { organization: team[1]!, team: team[2]! };
  const organization = /^\/organization\/([^/]+)\/subscriptions$/.exec(path);
  if (organization) return { organization: organization[1]!, team: null };
  return null;
}

/** The answer for a `…/subscriptions` path; undefined for any other path. */
export function listSubscriptions(
  request: Request,
  path: string,
  db: Sql,
): Promise<Response> | undefined {
  const scope = scopeOf(path);
  if (!scope) return undefined;
  return (async () => {
    const raw = new URL(request.url).searchParams.get('billing_type');
    if (raw !== null && raw !== '1' && raw !== '2')
      throw invalid('billing_type', 'The billing type must be 1 (card) or 2 (checkout).');
    const account = await billingAccount(request, db, scope);
    const rows = await db.unsafe<
      Record<string, unknown> &
        {
          ends_at: Date | null;
          period_starts_at: Date | null;
          billing_id: string;
        }[]
    >(
      `select ${SUBSCRIPTION_COLUMNS}, billing_id from public.subscriptions
       where account_id = $1 and type = 'default' and name <> 'free'
         and ($2::smallint is null or billing_type = $2::smallint)
         -- A pending downgrade dropped before it started is no subscription at all.
         and not (ends_at is not null and period_starts_at is not null
           and ends_at <= period_starts_at)
       order by created_at desc`,
      [account.accountId, raw === null ? null : Number(raw)],
    );
    const now = Date.now();
    const pending = (row: (typeof rows)[number]) =>
      /^sub_sched_|:scheduled$/.test(row.billing_id) &&
      row.period_starts_at !== null &&
      row.period_starts_at.getTime() > now;
    const ended = (row: (typeof rows)[number]) =>
      row.ends_at !== null && row.ends_at.getTime() <= now;
    const strip = ({ billing_id: _id, ...row }: (typeof rows)[number]) => row;
    const current = rows.find((row) => !pending(row) && !ended(row)) ?? null;
    return json({
      data: {
        current: current ? strip(current) : null,
        future: rows.filter((row) => pending(row) && row.ends_at === null).map(strip),
        past: rows.filter((row) => !pending(row) && ended(row)).map(strip),
      },
    });
  })();
}
