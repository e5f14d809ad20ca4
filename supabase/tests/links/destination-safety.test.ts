import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { destinations } from '../fixtures/hostile-destinations.ts';
import {
  aal2,
  all,
  asActor,
  type BulkChunkAnswer,
  createUser,
  one,
  useDatabase,
  withRollback,
  type TestUser,
} from '../support/index.ts';
import {
  asServiceRole,
  callCreateLink,
  callUpdateLink,
  createdAlias,
  createDomain,
  createLink,
  expectLinkError,
  givePlan,
  LINK_FEATURES,
  type TestDomain,
} from './fixtures.ts';

/**
 * One destination rule (migration 20261122002200_destination_safety.sql): app.judge_destination
 * judges the shared list of hostile and safe URLs (supabase/tests/fixtures/hostile-destinations.
 * json) as the edge functions' url-safety.ts does, and every path that stores a destination goes
 * through it: create_link, update_link, bulk import, direct writes (the kiosk, the service role,
 * SQL) of links, domain redirects and redirect routes. Stored destinations it refuses stop
 * redirecting.
 */
const pool = useDatabase();

interface Scene {
  user: TestUser;
  domain: TestDomain;
}

/** A paid user, a domain to create links on, and the list's own and banned domains. */
async function createScene(db: pg.ClientBase): Promise<Scene> {
  const user = await createUser(db);
  await givePlan(db, user.personalAccountId, { features: [...LINK_FEATURES, 'create_tiny_url'] });
  const domain = await createDomain(db);
  for (const own of destinations.shortDomains) await createDomain(db, { domain: own });
  for (const banned of destinations.bannedDomains) {
    await db.query(`insert into public.banned_domains (domain) values ($1)`, [banned]);
  }
  return { user, domain };
}

/** The account's stored destinations and links. */
async function storedOf(db: pg.ClientBase, accountId: string) {
  return one<{ urls: string[]; aliases: number }>(
    db,
    `select array(select url from public.long_urls where account_id = $1 order by url) as urls,
       (select count(*) from public.aliases where account_id = $1)::int as aliases`,
    [accountId],
  );
}

const storedForms = [...new Set(destinations.safe.map((entry) => entry.stored))].sort();

describe('app.judge_destination', () => {
  it('judges every hostile and safe URL of the shared list as url-safety.ts does', () =>
    withRollback(pool, async (db) => {
      await createScene(db);
      for (const entry of destinations.hostile) {
        const verdict = await one<{ code: string; reason: string; range: string | null }>(
          db,
          `select code, reason, range from app.judge_destination($1)`,
          [entry.url],
        );
        expect(verdict, entry.url).toEqual({
          code: entry.code,
          reason: entry.reason,
          range: entry.range ?? null,
        });
      }
      for (const entry of destinations.safe) {
        const verdict = await one(db, `select url, host, code from app.judge_destination($1)`, [
          entry.url,
        ]);
        expect(verdict, entry.url).toEqual({ url: entry.stored, host: entry.host, code: null });
      }
    }));

  it('is its own fixed point: a stored form is stored again unchanged', () =>
    withRollback(pool, async (db) => {
      const again = await all<{ url: string }>(
        db,
        `select (app.judge_destination(s)).url from unnest($1::text[]) as s`,
        [storedForms],
      );
      expect(again.map((row) => row.url)).toEqual(storedForms);
    }));

  it('calls our short domains the common ones with their subdomains, and the verified ones the redirect serves', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const branded = await createDomain(db, {
        kind: 'branded',
        accountId: owner.personalAccountId,
        domain: 'go.brand-fixture.example',
      });
      const pending = await createDomain(db, {
        kind: 'branded',
        accountId: owner.personalAccountId,
        domain: 'pending-fixture.example',
        verified: false,
      });
      const verdicts = await all<{ url: string; code: string | null }>(
        db,
        `select s as url, (app.judge_destination(s)).code from unnest($1::text[]) as s`,
        [
          [
            `https://${branded.domain}/x`,
            'https://www.go.brand-fixture.example/',
            'https://brand-fixture.example/',
            `https://${pending.domain}/`,
          ],
        ],
      );
      expect(verdicts).toEqual([
        { url: `https://${branded.domain}/x`, code: 'url_not_allowed' },
        // A customer's domain is theirs beyond the one name we serve.
        { url: 'https://www.go.brand-fixture.example/', code: null },
        { url: 'https://brand-fixture.example/', code: null },
        // Nobody blocks links to a site by claiming its name: an unverified domain is not served.
        { url: `https://${pending.domain}/`, code: null },
      ]);
    }));
});

describe('create_link and update_link', () => {
  it('create_link refuses every hostile URL with its code and writes nothing', () =>
    withRollback(pool, async (db) => {
      const { user, domain } = await createScene(db);
      for (const entry of destinations.hostile) {
        await expectLinkError(
          asActor(db, user.id, (as) =>
            callCreateLink(as, { url: entry.url, domain: domain.domain }),
          ),
          entry.code,
        );
      }
      expect(await storedOf(db, user.personalAccountId)).toEqual({ urls: [], aliases: 0 });
    }));

  it('create_link stores every safe URL in its normalised form (IDN as punycode)', () =>
    withRollback(pool, async (db) => {
      const { user, domain } = await createScene(db);
      for (const entry of destinations.safe) {
        const items = await asActor(db, user.id, (as) =>
          callCreateLink(as, { url: entry.url, domain: domain.domain }),
        );
        expect(items[0]?.url, entry.url).toBe(entry.stored);
      }
      expect(await storedOf(db, user.personalAccountId)).toEqual({
        urls: storedForms,
        aliases: destinations.safe.length,
      });
    }));

  it('update_link refuses every hostile URL and leaves the link as it was', () =>
    withRollback(pool, async (db) => {
      const { user, domain } = await createScene(db);
      const link = createdAlias(
        await asActor(db, user.id, (as) =>
          callCreateLink(as, { url: 'https://example.com/before', domain: domain.domain }),
        ),
      );
      for (const entry of destinations.hostile) {
        await expectLinkError(
          asActor(db, user.id, (as) => callUpdateLink(as, link.id, { url: entry.url })),
          entry.code,
        );
      }
      expect(await storedOf(db, user.personalAccountId)).toEqual({
        urls: ['https://example.com/before'],
        aliases: 1,
      });
      const idn = destinations.safe.find((entry) => entry.host.startsWith('xn--'));
      if (!idn) throw new Error('the list has no IDN host');
      const updated = await asActor(db, user.id, (as) =>
        callUpdateLink(as, link.id, { url: idn.url }),
      );
      expect(updated.url).toBe(idn.stored);
    }));

  it('a guest link (the service role) goes through the same rule', () =>
    withRollback(pool, async (db) => {
      const { domain } = await createScene(db);
      await db.query(`update public.domains set allow_for_guests = true where id = $1`, [
        domain.id,
      ]);
      await expectLinkError(
        asServiceRole(db, (as) =>
          callCreateLink(as, { url: 'http://[::ffff:7f00:1]/', domain: domain.domain }),
        ),
        'url_not_allowed',
      );
    }));
});

describe('bulk import', () => {
  it('refuses every hostile row with its code and creates the safe rows, normalised', () =>
    withRollback(pool, async (db) => {
      const { user, domain } = await createScene(db);
      const job = await one<{ id: string }>(
        db,
        `insert into public.bulk_jobs (account_id, created_by, domain_id, file_path, file_name,
           file_type, total)
         values ($1, $2::uuid, $3, $2::text || '/' || gen_random_uuid() || '.csv', 'list.csv',
           'csv', $4)
         returning id`,
        [
          user.personalAccountId,
          user.id,
          domain.id,
          destinations.hostile.length + destinations.safe.length,
        ],
      );
      const entries = [...destinations.hostile, ...destinations.safe];
      const rows = entries.map((entry, index) => ({ row: index + 2, url: entry.url, tags: [] }));
      const answer = await asActor(db, user.id, (as) =>
        one<{ result: BulkChunkAnswer }>(
          as,
          `select app.bulk_create_links($1, $2::jsonb) as result`,
          [job.id, JSON.stringify(rows)],
        ),
      );
      expect(answer.result.errors).toEqual(
        destinations.hostile.map((entry, index) => [index + 2, 'url', entry.code]),
      );
      expect(answer.result.created.map(([row]) => row)).toEqual(
        destinations.safe.map((_, index) => destinations.hostile.length + index + 2),
      );
      expect(await storedOf(db, user.personalAccountId)).toEqual({
        urls: storedForms,
        aliases: destinations.safe.length,
      });
    }));
});

describe('direct writes', () => {
  it('staff (the kiosk), the service role and the database owner cannot store a hostile destination', () =>
    withRollback(pool, async (db) => {
      const { user, domain } = await createScene(db);
      const staff = await createUser(db, { developer: true });
      const link = await createLink(db, {
        accountId: user.personalAccountId,
        domainId: domain.id,
        createdBy: user.id,
        url: 'https://example.com/kept',
      });
      const longUrl = await one<{ id: string }>(
        db,
        `select long_url_id as id from public.aliases where id = $1`,
        [link.id],
      );
      const hostile = [
        ['http://169.254.169.254/latest/meta-data/', 'url_not_allowed'],
        ['http://metadata.google.internal/', 'url_not_allowed'],
        ['https://fixture-banned.example/', 'url_banned'],
      ] as const;
      for (const [url, code] of hostile) {
        await expectLinkError(
          asActor(db, aal2(staff), (as) =>
            as.query(`update public.long_urls set url = $2 where id = $1`, [longUrl.id, url]),
          ),
          code,
        );
        await expectLinkError(
          asServiceRole(db, (as) =>
            as.query(`insert into public.long_urls (account_id, url) values ($1, $2)`, [
              user.personalAccountId,
              url,
            ]),
          ),
          code,
        );
        await db.query('savepoint owner_write');
        await expectLinkError(
          db.query(`insert into public.long_urls (account_id, url) values (null, $1)`, [url]),
          code,
        );
        await db.query('rollback to savepoint owner_write');
      }
      expect(await storedOf(db, user.personalAccountId)).toEqual({
        urls: ['https://example.com/kept'],
        aliases: 1,
      });
      // A direct write stores the normalised form too.
      const written = await one<{ url: string }>(
        db,
        `update public.long_urls set url = 'HTTPS://Bücher.Example/ä b' where id = $1 returning url`,
        [longUrl.id],
      );
      expect(written.url).toBe('https://xn--bcher-kva.example/%C3%A4%20b');
    }));

  it("a domain's root and 404 redirects and a link's redirect routes follow the rule too", () =>
    withRollback(pool, async (db) => {
      const { user, domain } = await createScene(db);
      for (const column of ['root_redirect_url', 'not_found_redirect_url']) {
        await expectLinkError(
          asServiceRole(db, (as) =>
            as.query(`update public.domains set ${column} = 'http://127.1/' where id = $1`, [
              domain.id,
            ]),
          ),
          'url_not_allowed',
          { hint: column },
        );
      }
      const stored = await one<{ root: string }>(
        db,
        `update public.domains set root_redirect_url = 'https://Exämple.com' where id = $1
         returning root_redirect_url as root`,
        [domain.id],
      );
      expect(stored.root).toBe('https://xn--exmple-cua.com/');

      const link = await createLink(db, {
        accountId: user.personalAccountId,
        domainId: domain.id,
        createdBy: user.id,
      });
      await db.query('savepoint route');
      await expectLinkError(
        db.query(
          `insert into public.alias_routes (alias_id, account_id, position, url)
           values ($1, $2, 0, 'http://[fd00:ec2::254]/')`,
          [link.id, user.personalAccountId],
        ),
        'url_not_allowed',
      );
      await db.query('rollback to savepoint route');
    }));
});

describe('the redirect', () => {
  it('stops serving a stored destination the rule refuses, as it does banned ones', () =>
    withRollback(pool, async (db) => {
      const { user, domain } = await createScene(db);
      const safe = await createLink(db, {
        accountId: user.personalAccountId,
        domainId: domain.id,
        createdBy: user.id,
      });
      // Rows from before the rule: written as the superuser with triggers off (replica mode).
      await db.query(`set local session_replication_role = replica`);
      const legacy: TestLinkRow[] = [];
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://2130706433/',
        'https://user:pw@example.com/',
        `https://www.${destinations.shortDomains[0]}/loop`,
      ]) {
        const row = await one<{ id: string }>(
          db,
          `with long_url as (
             insert into public.long_urls (account_id, url) values ($1, $2) returning id
           )
           insert into public.aliases (long_url_id, account_id, domain_id, alias, created_by)
           select id, $1, $3, 'legacy' || md5($2), $4 from long_url
           returning id`,
          [user.personalAccountId, url, domain.id, user.id],
        );
        legacy.push({ id: row.id, url });
      }
      await db.query(
        `update public.domains set root_redirect_url = 'http://10.0.0.5/',
           not_found_redirect_url = 'http://localhost/' where id = $1`,
        [domain.id],
      );
      await db.query(`set local session_replication_role = origin`);

      const aliases: string[] = [];
      for (const id of [safe.id, ...legacy.map((row) => row.id)]) {
        const { alias } = await one<{ alias: string }>(
          db,
          `select alias::text from public.aliases where id = $1`,
          [id],
        );
        aliases.push(alias);
      }
      const resolved = await all<{
        alias_id: string;
        destination_banned: boolean;
        root_redirect_url: string | null;
        not_found_redirect_url: string | null;
      }>(
        db,
        `select alias_id, destination_banned, root_redirect_url, not_found_redirect_url
         from app.resolve_short_links($1::text[], $2::text[])`,
        [aliases.map(() => domain.domain), aliases],
      );
      const banned = Object.fromEntries(
        resolved.map((row) => [row.alias_id, row.destination_banned]),
      );
      expect(banned).toEqual({
        [safe.id]: false,
        ...Object.fromEntries(legacy.map((row) => [row.id, true])),
      });
      for (const row of resolved) {
        expect([row.root_redirect_url, row.not_found_redirect_url]).toEqual([null, null]);
      }
    }));
});

describe('the redirect, for links made through the rule', () => {
  it('stops serving them once their domain is banned or becomes one of our short domains', () =>
    withRollback(pool, async (db) => {
      const { user, domain } = await createScene(db);
      const made: Record<string, string> = {};
      for (const url of [
        'https://www.later-banned.example/x',
        'https://shop.later-ours.example/y',
        'https://fine.example/z',
      ]) {
        const link = await createLink(db, {
          accountId: user.personalAccountId,
          domainId: domain.id,
          createdBy: user.id,
          url,
        });
        const { alias } = await one<{ alias: string }>(
          db,
          `select alias::text from public.aliases where id = $1`,
          [link.id],
        );
        made[url] = alias;
      }
      const blocked = async () => {
        const rows = await all<{ alias: string; destination_banned: boolean }>(
          db,
          `select alias, destination_banned from app.resolve_short_links($1::text[], $2::text[])
           order by alias`,
          [Object.values(made).map(() => domain.domain), Object.values(made)],
        );
        return Object.fromEntries(rows.map((row) => [row.alias, row.destination_banned]));
      };
      // The redirect judges in full only rows without a current mark (app.destination_checks).
      const marked = async () =>
        (
          await one<{ count: number }>(
            db,
            `select count(*)::int as count from app.destination_checks c
             join public.long_urls l on l.id = c.long_url_id
             where l.account_id = $1 and c.url_md5 = md5(l.url)`,
            [user.personalAccountId],
          )
        ).count;
      const [banned, ours, fine] = Object.values(made) as [string, string, string];
      expect(await marked()).toBe(3);
      expect(await blocked()).toEqual({ [banned]: false, [ours]: false, [fine]: false });
      await db.query(`insert into public.banned_domains (domain) values ('later-banned.example')`);
      await createDomain(db, { domain: 'later-ours.example' });
      expect(await marked()).toBe(1);
      expect(await blocked()).toEqual({ [banned]: true, [ours]: true, [fine]: false });
    }));
});

interface TestLinkRow {
  id: string;
  url: string;
}
