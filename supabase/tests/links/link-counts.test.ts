import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createUser, one, useDatabase, withRollback } from '../support/index.ts';
import { createDomain, createLink } from './fixtures.ts';

/**
 * app.link_counts (migration 20261122003100), the counters app.check_link_limits judges by: after
 * any mix of inserts, updates and deletes, single or set-based, they equal a count of the links.
 */
const pool = useDatabase();

interface Counts {
  links: number;
  branded: number;
  live: number;
  live_expiring: number;
}

/** Per month (ISO text), the counters as kept and as counted afresh. */
async function keptAndCounted(db: pg.ClientBase, accountId: string) {
  const read = (sql: string) =>
    db
      .query<Counts & { month: Date }>(sql, [accountId])
      .then(({ rows }) =>
        Object.fromEntries(
          rows.map(({ month, ...counts }) => [
            month.toISOString(),
            Object.fromEntries(Object.entries(counts).map(([key, value]) => [key, Number(value)])),
          ]),
        ),
      );
  const kept = await read(
    `select month, sum(links) as links, sum(branded) as branded, sum(live) as live,
       sum(live_expiring) as live_expiring
     from app.link_counts where account_id = $1 group by month order by month`,
  );
  const counted = await read(
    `select date_trunc('month', a.created_at, 'UTC') as month, count(*) as links,
       count(*) filter (where d.kind <> 'common') as branded,
       count(*) filter (where app.alias_is_active(a.status)) as live,
       count(*) filter (where app.alias_is_active(a.status) and a.expires_at is not null)
         as live_expiring
     from public.aliases a join public.domains d on d.id = a.domain_id
     where a.account_id = $1 group by 1 order by 1`,
  );
  return { kept, counted };
}

describe('app.link_counts', () => {
  it('follows inserts, updates and deletes of links, one by one and set-based', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      await db.query(
        `update public.accounts set features = '{use_branded_domains}' where id = $1`,
        [account],
      );
      const common = await createDomain(db);
      const branded = await createDomain(db, { kind: 'branded', accountId: account });
      const base = { accountId: account, createdBy: user.id, domainId: common.id };
      const lastYear = new Date(Date.now() - 400 * 24 * 3600_000);
      const live = await createLink(db, base);
      const expiring = await createLink(db, {
        ...base,
        expiresAt: new Date(Date.now() + 3600_000),
      });
      await createLink(db, { ...base, domainId: branded.id });
      const old = await createLink(db, { ...base, createdAt: lastYear, status: 'archived' });
      // Set-based: one statement, many links, two months.
      await db.query(
        `insert into public.aliases (long_url_id, account_id, domain_id, alias, status,
           created_by, created_at, is_main)
         select l.id, $1, $2, 'bulk' || g || substr(md5(random()::text), 1, 8),
           case when g % 3 = 0 then 'deleted' else 'active' end, $3,
           now() - (g % 2) * interval '40 days', false
         from generate_series(1, 30) as g, public.long_urls l where l.id = $4`,
        [account, common.id, user.id, live.longUrlId],
      );
      let state = await keptAndCounted(db, account);
      expect(state.kept).toEqual(state.counted);
      expect(Object.values(state.kept).reduce((sum, c) => sum + (c.links ?? 0), 0)).toBe(34);

      // Status, expiry, domain and creation time change what counts; a rename does not.
      await db.query(`update public.aliases set status = 'archived' where id = $1`, [live.id]);
      await db.query(`update public.aliases set expires_at = null where id = $1`, [expiring.id]);
      await db.query(
        `update public.aliases set domain_id = $2, alias = alias || 'x' where id = $1`,
        [old.id, branded.id],
      );
      await db.query(`update public.aliases set created_at = now() where id = $1`, [old.id]);
      await db.query(
        `update public.aliases set status = 'active' where account_id = $1 and status = 'deleted'`,
        [account],
      );
      state = await keptAndCounted(db, account);
      expect(state.kept).toEqual(state.counted);

      await db.query(`delete from public.aliases where account_id = $1 and alias like 'bulk%'`, [
        account,
      ]);
      state = await keptAndCounted(db, account);
      expect(state.kept).toEqual(state.counted);
      expect(Object.keys(state.kept)).toHaveLength(1);

      // Its last links gone, nothing of the account stays.
      await db.query(`delete from public.aliases where account_id = $1`, [account]);
      const left = await one<{ n: string }>(
        db,
        `select count(*) as n from app.link_counts where account_id = $1`,
        [account],
      );
      expect(Number(left.n)).toBe(0);
    }));

  it("does not count guests' links (they have no account)", () =>
    withRollback(pool, async (db) => {
      const domain = await createDomain(db, { allowForGuests: true });
      const before = await one<{ n: string }>(db, `select count(*) as n from app.link_counts`);
      const url = await one<{ id: string }>(
        db,
        `insert into public.long_urls (account_id, url) values (null, 'https://example.com/g')
         returning id`,
      );
      await db.query(
        `insert into public.aliases (long_url_id, account_id, domain_id, alias)
         values ($1, null, $2, 'guest-count-test')`,
        [url.id, domain.id],
      );
      const after = await one<{ n: string }>(db, `select count(*) as n from app.link_counts`);
      expect(after.n).toBe(before.n);
    }));
});

/**
 * app.link_capacity (bulk import's room under the plan limits, migration 20261122006200) reads
 * the counters: its answer is the one a count of the account's links gives, live links whose
 * expiry has passed not counted as active.
 */
describe('app.link_capacity', () => {
  it('answers what a count of the links leaves under each limit', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      await db.query(
        `update public.accounts set features = '{use_branded_domains}' where id = $1`,
        [account],
      );
      const common = await createDomain(db);
      const branded = await createDomain(db, { kind: 'branded', accountId: account });
      const base = { accountId: account, createdBy: user.id, domainId: common.id };
      const hour = 3600_000;
      await createLink(db, base);
      await createLink(db, { ...base, expiresAt: new Date(Date.now() + hour) });
      const expired = await createLink(db, { ...base, expiresAt: new Date(Date.now() + hour) });
      await db.query(
        `update public.aliases set expires_at = now() - interval '1 minute'
        where id = $1`,
        [expired.id],
      );
      await createLink(db, { ...base, domainId: branded.id });
      await createLink(db, {
        ...base,
        createdAt: new Date(Date.now() - 400 * 24 * hour),
        status: 'archived',
      });
      // Every limit set (far above the links) but those a case names: the plan's own stay out.
      const unlimited = {
        max_active_aliases: 1e9,
        max_aliases_per_month: 1e9,
        max_branded_aliases_per_month: 1e9,
        max_aliases: 1e9,
      };
      const capacity = async (limits: Partial<typeof unlimited>, isBranded: boolean) => {
        await db.query(`delete from public.account_usage where account_id = $1`, [account]);
        await db.query(
          `insert into public.account_usage (account_id, name, "limit")
           select $1, l.key, l.value::bigint from jsonb_each_text($2) as l`,
          [account, JSON.stringify({ ...unlimited, ...limits })],
        );
        const { n } = await one<{ n: string | null }>(db, `select app.link_capacity($1, $2) as n`, [
          account,
          isBranded,
        ]);
        return n === null ? null : Number(n);
      };
      // Links: 5 in all, 4 this month, 1 of them branded; 4 live, of which 1 expired: 3 active.
      expect(await capacity({ max_active_aliases: 10 }, false)).toBe(7);
      expect(await capacity({ max_aliases_per_month: 6 }, false)).toBe(2);
      expect(await capacity({ max_branded_aliases_per_month: 3 }, true)).toBe(2);
      // Off a branded domain the branded limit takes no part.
      expect(await capacity({ max_branded_aliases_per_month: 3 }, false)).toBe(1e9 - 5);
      expect(await capacity({ max_aliases: 5, max_active_aliases: 10 }, false)).toBe(0);
      expect(await capacity({ max_active_aliases: 4, max_aliases: 100 }, true)).toBe(1);
    }));
});
