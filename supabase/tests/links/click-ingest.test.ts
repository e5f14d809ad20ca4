import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { all, one, uniqueSuffix, useDatabase, withRollback } from '../support/index.ts';

/**
 * app.record_clicks, the redirector's batch write (migration 20261122003400): per account of a
 * batch, the month's redirects and trackable clicks are counted once, the clicks that fit the
 * trackable limit are stored, and each account is told whether it may still redirect; batches
 * written at the same time lose no count and together never store more than the limit.
 */
const pool = useDatabase();

interface Accounts {
  domain: string;
  userIds: string[];
  /** Per account, in creation order: its id and its one link. */
  accounts: { id: string; aliasId: string }[];
}

/** `count` users (each with a personal account) with one link each on a new domain. */
async function createAccounts(db: pg.ClientBase, count: number): Promise<Accounts> {
  const suffix = uniqueSuffix();
  const domain = `ingest-${suffix}.test`;
  await db.query(
    `insert into public.domains (domain, kind, verification_status, verified_at)
     values ($1, 'common', 'verified', now())`,
    [domain],
  );
  const users = await all<{ id: string }>(
    db,
    `insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
     select gen_random_uuid(), 'authenticated', 'authenticated',
       'ingest-' || $1 || '-' || g || '@example.test', now(), now(), now()
     from generate_series(1, $2) as g
     returning id`,
    [suffix, count],
  );
  const accounts = await all<{ id: string; alias_id: string }>(
    db,
    `with owners as (
       select p.id as user_id, p.personal_account_id as account_id, p.email
       from public.profiles p where p.id = any ($1)
     ),
     urls as (
       insert into public.long_urls (account_id, url)
       select o.account_id, 'https://example.com/' || o.account_id from owners o
       returning id, account_id
     ),
     links as (
       insert into public.aliases (long_url_id, account_id, domain_id, alias, created_by)
       select u.id, u.account_id, d.id, 'a' || md5(u.account_id::text), o.user_id
       from urls u join owners o on o.account_id = u.account_id, public.domains d
       where d.domain = $2
       returning id, account_id
     )
     select l.account_id as id, l.id as alias_id
     from links l join owners o on o.account_id = l.account_id
     order by o.email`,
    [users.map((u) => u.id), domain],
  );
  return {
    domain,
    userIds: users.map((u) => u.id),
    accounts: accounts.map((a) => ({ id: a.id, aliasId: a.alias_id })),
  };
}

interface Click {
  aliasId: string;
  /** Seconds before now. */
  ago?: number;
  country?: string | null;
}

/** app.record_clicks in its array form, as the redirector calls it. */
function record(db: pg.ClientBase, clicks: Click[]) {
  const column = <T>(value: (click: Click) => T) => clicks.map(value);
  return all<{ account_id: string; redirects_blocked: boolean }>(
    db,
    `select account_id::text, redirects_blocked from app.record_clicks(
       (select array_agg(now() - make_interval(secs => s) order by o) from unnest($1::float8[])
         with ordinality as t(s, o)),
       $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::boolean[], $10::boolean[], $11::text[])`,
    [
      column((c) => c.ago ?? 0),
      column((c) => c.aliasId),
      column(() => null),
      column((c) => (c.country === undefined ? 'SE' : c.country)),
      column(() => 'mobile'),
      column(() => 'Chrome'),
      column(() => 'Android'),
      column(() => null),
      column(() => false),
      column(() => false),
      column(() => '0f'.repeat(32)),
    ],
  );
}

function usage(db: pg.ClientBase, accountIds: string[]) {
  return all<{ account_id: string; name: string; used: number; overage: number }>(
    db,
    `select account_id::text, name, used::int, overage::int from public.account_usage
     where account_id = any ($1) and name in ('max_redirects', 'max_trackable_clicks')
     order by account_id, name`,
    [accountIds],
  );
}

const storedClicks = (db: pg.ClientBase, accountId: string) =>
  one<{ n: number }>(db, 'select count(*)::int as n from public.clicks where account_id = $1', [
    accountId,
  ]).then((row) => row.n);

describe('app.record_clicks', () => {
  it('counts each account of a batch once, right after it, and stores every click', () =>
    withRollback(pool, async (db) => {
      const { accounts } = await createAccounts(db, 40);
      // Account i clicks i + 1 times, interleaved as a redirector's batch is.
      const clicks: Click[] = [];
      for (let round = 0; round < accounts.length; round++)
        accounts.forEach((account, i) => {
          if (round <= i) clicks.push({ aliasId: account.aliasId, ago: round });
        });
      const answer = await record(db, clicks);
      expect(answer).toHaveLength(accounts.length);
      expect(answer.every((row) => !row.redirects_blocked)).toBe(true);

      const rows = await usage(
        db,
        accounts.map((a) => a.id),
      );
      const expected = accounts.flatMap((account, i) => [
        { account_id: account.id, name: 'max_redirects', used: i + 1, overage: 0 },
        { account_id: account.id, name: 'max_trackable_clicks', used: i + 1, overage: 0 },
      ]);
      const byKey = (r: { account_id: string; name: string }) => `${r.account_id}/${r.name}`;
      expect(rows.sort((a, b) => byKey(a).localeCompare(byKey(b)))).toEqual(
        expected.sort((a, b) => byKey(a).localeCompare(byKey(b))),
      );
      for (const [i, account] of accounts.entries())
        expect(await storedClicks(db, account.id)).toBe(i + 1);

      // A second batch adds to the same counters.
      await record(db, [{ aliasId: accounts[0]!.aliasId }, { aliasId: accounts[0]!.aliasId }]);
      expect((await usage(db, [accounts[0]!.id])).map((r) => r.used)).toEqual([3, 3]);
    }));

  it('stores only the earliest clicks that fit the trackable limit, counts overage, blocks past max_redirects', () =>
    withRollback(pool, async (db) => {
      const { accounts } = await createAccounts(db, 3);
      const [limited, overage, lastMonth] = accounts as [
        Accounts['accounts'][number],
        Accounts['accounts'][number],
        Accounts['accounts'][number],
      ];
      await db.query(
        `insert into public.account_usage (account_id, name, "limit", overage_enabled) values
           ($1, 'max_trackable_clicks', 3, false), ($1, 'max_redirects', 4, false),
           ($2, 'max_trackable_clicks', 2, true)`,
        [limited.id, overage.id],
      );
      // Last month's counts do not carry over.
      await db.query(
        `insert into public.account_usage (account_id, name, used, period_starts_at)
         values ($1, 'max_redirects', 999, date_trunc('month', now(), 'UTC') - interval '1 month'),
           ($1, 'max_trackable_clicks', 999, date_trunc('month', now(), 'UTC') - interval '1 month')`,
        [lastMonth.id],
      );
      const five = (aliasId: string) =>
        (['FI', 'EE', 'DK', 'CH', 'BE'] as const).map((country, i) => ({
          aliasId,
          ago: 50 - 10 * i,
          country,
        }));
      const answer = await record(db, [
        ...five(limited.aliasId),
        ...five(overage.aliasId).slice(0, 4),
        { aliasId: lastMonth.aliasId },
        // Dropped: a link that does not exist.
        { aliasId: '00000000-0000-4000-8000-00000000dead' },
      ]);
      expect(Object.fromEntries(answer.map((r) => [r.account_id, r.redirects_blocked]))).toEqual({
        [limited.id]: true,
        [overage.id]: false,
        [lastMonth.id]: false,
      });
      const rows = Object.fromEntries(
        (
          await usage(
            db,
            accounts.map((a) => a.id),
          )
        ).map((r) => [
          `${r.account_id === limited.id ? 'limited' : r.account_id === overage.id ? 'overage' : 'lastMonth'}/${r.name}`,
          [r.used, r.overage],
        ]),
      );
      expect(rows).toEqual({
        'limited/max_redirects': [5, 1],
        'limited/max_trackable_clicks': [3, 0],
        'overage/max_redirects': [4, 0],
        'overage/max_trackable_clicks': [4, 2],
        'lastMonth/max_redirects': [1, 0],
        'lastMonth/max_trackable_clicks': [1, 0],
      });
      const kept = await all<{ country: string }>(
        db,
        'select country from public.clicks where account_id = $1 order by time',
        [limited.id],
      );
      expect(kept.map((r) => r.country)).toEqual(['FI', 'EE', 'DK']);
      expect(await storedClicks(db, overage.id)).toBe(4);

      // Past the limit, a later batch stores nothing and counts no trackable click.
      await record(db, [{ aliasId: limited.aliasId }]);
      expect(await storedClicks(db, limited.id)).toBe(3);
      expect((await usage(db, [limited.id])).map((r) => [r.name, r.used])).toEqual([
        ['max_redirects', 6],
        ['max_trackable_clicks', 3],
      ]);
    }));

  it('refuses columns of different lengths', () =>
    withRollback(pool, async (db) => {
      await expect(
        db.query(
          `select * from app.record_clicks(array[now()], array[gen_random_uuid()], '{}', '{}', '{}',
             '{}', '{}', '{}', '{}', '{}', '{}')`,
        ),
      ).rejects.toMatchObject({ code: '22023' });
    }));

  it('batches written at the same time lose no count and store no more than the limit', async () => {
    const setup = await pool.connect();
    let scene: Accounts | undefined;
    try {
      scene = await createAccounts(setup, 12);
      const limited = scene.accounts[0]!;
      await setup.query(
        `insert into public.account_usage (account_id, name, "limit") values ($1, 'max_trackable_clicks', 10)`,
        [limited.id],
      );
      // Three writers (the pool's other connections), each a transaction of four batches over
      // every account, in alternating account order: they wait on one another's counters and
      // never deadlock.
      const writers = await Promise.all([0, 1, 2].map(() => pool.connect()));
      try {
        await Promise.all(
          writers.map(async (writer, w) => {
            await writer.query('begin');
            for (let batch = 0; batch < 4; batch++) {
              const order = (w + batch) % 2 ? [...scene!.accounts].reverse() : scene!.accounts;
              await record(
                writer,
                order.flatMap((account) => [
                  { aliasId: account.aliasId },
                  { aliasId: account.aliasId },
                ]),
              );
            }
            await writer.query('commit');
          }),
        );
      } finally {
        for (const writer of writers) writer.release();
      }
      // 3 writers × 4 batches × 2 clicks = 24 per account; the limited one stores 10 of them.
      const rows = await usage(
        setup,
        scene.accounts.map((a) => a.id),
      );
      expect(rows).toHaveLength(2 * scene.accounts.length);
      for (const row of rows) {
        const expected =
          row.account_id === limited.id && row.name === 'max_trackable_clicks' ? 10 : 24;
        expect(row.used, `${row.name} of ${row.account_id}`).toBe(expected);
      }
      for (const account of scene.accounts)
        expect(await storedClicks(setup, account.id)).toBe(account === limited ? 10 : 24);
    } finally {
      if (scene) {
        await setup.query(
          `delete from public.aliases a using public.domains d
           where a.domain_id = d.id and d.domain = $1`,
          [scene.domain],
        );
        await setup.query('delete from public.domains where domain = $1', [scene.domain]);
        await setup.query('delete from auth.users where id = any ($1)', [scene.userIds]);
      }
      setup.release();
    }
  });
});
