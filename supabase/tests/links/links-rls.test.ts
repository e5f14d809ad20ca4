import { describe, expect, it } from 'vitest';
import {
  asActor,
  confirmed,
  expectProtectedColumn,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { createLink, expectLinkError, expectRefusedAs, ids } from './fixtures.ts';
import { ACTORS, createLinkScene, linkIds, VISIBLE_LINKS } from './scene.ts';

/**
 * Row-level security of links and what hangs off them, actor by actor: each actor sees exactly
 * the links the contract's permission resolution gives them, through every table; writes go
 * through the RPCs (tested in create-link and manage-link), so direct writes are refused to
 * everyone but staff.
 */
const pool = useDatabase();

describe('links (aliases) by actor', () => {
  it('each actor sees exactly their links, and the tables around them follow', () =>
    withRollback(pool, async (db) => {
      const scene = await createLinkScene(db);
      const all = Object.values(scene.links);
      for (const actor of ACTORS) {
        const expected = VISIBLE_LINKS[actor];
        const seen = await asActor(db, scene.cast[actor].id, async (as) => ({
          aliases: await ids(as, `select id from public.aliases where id = any ($1)`, [
            all.map((l) => l.id),
          ]),
          longUrls: await ids(as, `select id from public.long_urls where id = any ($1)`, [
            all.map((l) => l.longUrlId),
          ]),
          taggedLinks: await ids(
            as,
            `select distinct alias_id as id from public.alias_tags where alias_id = any ($1)`,
            [all.map((l) => l.id)],
          ),
        }));
        expect(seen.aliases, actor).toEqual(linkIds(scene, expected));
        expect(seen.longUrls, actor).toEqual(linkIds(scene, expected, 'longUrlId'));
        const tagged = expected.filter((name) => name === 'teamByMember' || name === 'orgPersonal');
        expect(seen.taggedLinks, actor).toEqual(linkIds(scene, tagged));
      }
    }));

  it('anonymous visitors cannot read links, long URLs or tags at all', () =>
    withRollback(pool, async (db) => {
      await createLinkScene(db);
      for (const table of ['aliases', 'long_urls', 'tags', 'alias_tags']) {
        await expectRefusedAs(db, null, `select 1 from public.${table}`);
      }
    }));

  it('nobody but staff writes links directly: inserts fail, updates and deletes touch nothing', () =>
    withRollback(pool, async (db) => {
      const scene = await createLinkScene(db);
      const { cast, links, domain } = scene;
      const link = links.teamByMember;
      for (const actor of ['owner', 'teamAdmin', 'member'] as const) {
        await expectRefusedAs(
          db,
          cast[actor].id,
          `insert into public.aliases (long_url_id, account_id, domain_id, alias, created_by)
           values ($1, $2, $3, 'direct-insert', $4)`,
          [link.longUrlId, cast.team.accountId, domain.id, cast[actor].id],
        );
        await expectRefusedAs(
          db,
          cast[actor].id,
          `insert into public.long_urls (account_id, url) values ($1, 'https://x.test/')`,
          [cast.team.accountId],
        );
        await asActor(db, cast[actor].id, async (as) => {
          const updated = await as.query(
            `update public.aliases set status = 'archived' where id = $1`,
            [link.id],
          );
          expect(updated.rowCount, actor).toBe(0);
          const deleted = await as.query(`delete from public.aliases where id = $1`, [link.id]);
          expect(deleted.rowCount, actor).toBe(0);
        });
      }
      const status = await one<{ status: string }>(
        db,
        `select status from public.aliases where id = $1`,
        [link.id],
      );
      expect(status.status).toBe('active');
    }));

  it('staff terminate a link and a destination in the kiosk', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      await asActor(db, cast.staff.id, async (as) => {
        const link = await as.query(
          `update public.aliases set status = 'terminated' where id = $1`,
          [links.stranger.id],
        );
        expect(link.rowCount).toBe(1);
        const url = await as.query(
          `update public.long_urls set status = 'terminated' where id = $1`,
          [links.guest.longUrlId],
        );
        expect(url.rowCount).toBe(1);
      });
    }));

  it('nobody moves a link to another account or rewrites who made it, staff included', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      await asActor(db, cast.staff.id, (as) =>
        expectProtectedColumn(
          as.query(`update public.aliases set account_id = $2 where id = $1`, [
            links.stranger.id,
            cast.staff.personalAccountId,
          ]),
          'account_id',
        ),
      );
      await asActor(db, cast.staff.id, (as) =>
        expectProtectedColumn(
          as.query(`update public.aliases set created_by = $2 where id = $1`, [
            links.stranger.id,
            cast.staff.id,
          ]),
          'created_by',
        ),
      );
    }));
});

describe('tags by actor', () => {
  it('readers see the account tags; link managers with the tags feature add, rename and delete them', () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      const team = cast.team.accountId;
      for (const actor of ['viewer', 'member', 'teamAdmin', 'owner', 'supervisor'] as const) {
        const names = await asActor(db, cast[actor].id, (as) =>
          as.query<{ name: string }>(`select name from public.tags where account_id = $1`, [team]),
        );
        expect(
          names.rows.map((r) => r.name),
          actor,
        ).toEqual(['team-tag']);
      }
      for (const actor of ['stranger', 'orgUser'] as const) {
        const names = await asActor(db, cast[actor].id, (as) =>
          as.query(`select name from public.tags where account_id = $1`, [team]),
        );
        expect(names.rowCount, actor).toBe(0);
      }
      for (const actor of ['viewer', 'member', 'stranger'] as const) {
        await expectRefusedAs(
          db,
          cast[actor].id,
          `insert into public.tags (account_id, name) values ($1, 'new-tag')`,
          [team],
        );
      }
      await asActor(db, cast.teamAdmin.id, async (as) => {
        await as.query(`insert into public.tags (account_id, name) values ($1, 'new-tag')`, [team]);
        const renamed = await as.query(
          `update public.tags set name = 'renamed' where account_id = $1 and name = 'new-tag'`,
          [team],
        );
        expect(renamed.rowCount).toBe(1);
        const deleted = await as.query(`delete from public.tags where account_id = $1`, [team]);
        expect(deleted.rowCount).toBe(2);
      });
    }));

  it('a tag must be lower-case, without spaces, 2 to 45 characters, once per account', () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      for (const bad of ['Upper', 'has space', 'x', 'y'.repeat(46), 'team-tag']) {
        await expect(
          asActor(db, cast.teamAdmin.id, (as) =>
            as.query(`insert into public.tags (account_id, name) values ($1, $2)`, [
              cast.team.accountId,
              bad,
            ]),
          ),
          bad,
        ).rejects.toMatchObject({ code: expect.stringMatching(/^23(514|505)$/) });
      }
    }));
});

describe('UTM presets by actor', () => {
  it('link creators save presets; authors and link managers change them; viewers only read', () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      const team = cast.team.accountId;
      const insertPreset = `insert into public.utm_presets
          (account_id, name, utm_source, utm_medium, utm_campaign)
        values ($1, $2, 'newsletter', 'email', 'spring') returning id`;
      const memberPreset = await asActor(db, cast.member.id, (as) =>
        one<{ id: string }>(as, insertPreset, [team, 'Member preset']),
      );
      const adminPreset = await asActor(db, cast.teamAdmin.id, (as) =>
        one<{ id: string }>(as, insertPreset, [team, 'Admin preset']),
      );
      await expectRefusedAs(db, cast.viewer.id, insertPreset, [team, 'Viewer preset']);
      const viewerSeen = await asActor(db, cast.viewer.id, (as) =>
        ids(as, `select id from public.utm_presets where account_id = $1`, [team]),
      );
      expect(viewerSeen).toEqual([memberPreset.id, adminPreset.id].sort());
      await asActor(db, cast.member.id, async (as) => {
        const own = await as.query(`update public.utm_presets set name = 'Mine' where id = $1`, [
          memberPreset.id,
        ]);
        expect(own.rowCount).toBe(1);
        const others = await as.query(
          `update public.utm_presets set name = 'Taken' where id = $1`,
          [adminPreset.id],
        );
        expect(others.rowCount).toBe(0);
      });
      await asActor(db, cast.teamAdmin.id, async (as) => {
        const deleted = await as.query(`delete from public.utm_presets where id = $1`, [
          memberPreset.id,
        ]);
        expect(deleted.rowCount).toBe(1);
      });
      await expectRefusedAs(db, cast.stranger.id, insertPreset, [team, 'Stranger preset']);
      const strangerSeen = await asActor(db, cast.stranger.id, (as) =>
        ids(as, `select id from public.utm_presets where account_id = $1`, [team]),
      );
      expect(strangerSeen).toEqual([]);
      await expectRefusedAs(db, null, `select id from public.utm_presets`);
    }));

  it("the builder's maximum lengths hold: source 100, medium 50, campaign 150, term 50, content 100", () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      const base = {
        utm_source: 's',
        utm_medium: 'm',
        utm_campaign: 'c',
        utm_term: null,
        utm_content: null,
      };
      const limits = {
        utm_source: 100,
        utm_medium: 50,
        utm_campaign: 150,
        utm_term: 50,
        utm_content: 100,
      };
      for (const [field, max] of Object.entries(limits)) {
        for (const length of [max, max + 1]) {
          const values = { ...base, [field]: 'x'.repeat(length) };
          const attempt = asActor(db, cast.member.id, (as) =>
            as.query(
              `insert into public.utm_presets (account_id, name, utm_source, utm_medium,
                 utm_campaign, utm_term, utm_content) values ($1, $2, $3, $4, $5, $6, $7)`,
              [
                cast.team.accountId,
                `${field}-${length}`,
                values.utm_source,
                values.utm_medium,
                values.utm_campaign,
                values.utm_term,
                values.utm_content,
              ],
            ),
          );
          if (length === max) await attempt;
          else await expect(attempt, field).rejects.toMatchObject({ code: '23514' });
        }
      }
    }));
});

describe('bulk jobs by actor', () => {
  it('link creators with the bulk feature schedule a pending job; the rest is the service role', () =>
    withRollback(pool, async (db) => {
      const { cast, domain } = await createLinkScene(db);
      const schedule = (status = 'pending') =>
        `insert into public.bulk_jobs (account_id, created_by, domain_id, file_path, status)
         values ($1, $2, $3, 'uploads/links.csv', '${status}') returning id`;
      const job = await asActor(db, cast.member.id, (as) =>
        one<{ id: string }>(as, schedule(), [cast.team.accountId, cast.member.id, domain.id]),
      );
      await expectRefusedAs(db, cast.member.id, schedule('completed'), [
        cast.team.accountId,
        cast.member.id,
        domain.id,
      ]);
      await expectRefusedAs(
        db,
        cast.member.id,
        `update public.bulk_jobs set total = 5 where id = $1`,
        [job.id],
      );
      await expectRefusedAs(db, cast.viewer.id, schedule(), [
        cast.team.accountId,
        cast.viewer.id,
        domain.id,
      ]);
      const viewerSeen = await asActor(db, cast.viewer.id, (as) =>
        ids(as, `select id from public.bulk_jobs where id = $1`, [job.id]),
      );
      expect(viewerSeen).toEqual([job.id]);
      // The member's personal account has no plan with use_bulk.
      await expectRefusedAs(db, cast.member.id, schedule(), [
        cast.member.personalAccountId,
        cast.member.id,
        domain.id,
      ]);
      for (const actor of ['stranger', 'orgUser'] as const) {
        const seen = await asActor(db, cast[actor].id, (as) =>
          ids(as, `select id from public.bulk_jobs where id = $1`, [job.id]),
        );
        expect(seen, actor).toEqual([]);
      }
      const staffSeen = await asActor(db, cast.staff.id, (as) =>
        ids(as, `select id from public.bulk_jobs where id = $1`, [job.id]),
      );
      expect(staffSeen).toEqual([job.id]);
    }));
});

describe('API tokens by actor', () => {
  it('only holders of the api permission see, rename and revoke tokens; nobody inserts one', () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      const token = await one<{ id: string }>(
        db,
        `insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix)
         values ($1, $2, 'CI', sha256('secret'::bytea), 'slt_abcd') returning id`,
        [cast.team.accountId, cast.teamAdmin.id],
      );
      for (const actor of ['member', 'viewer', 'stranger', 'orgUser'] as const) {
        const seen = await asActor(db, cast[actor].id, (as) =>
          ids(as, `select id from public.api_tokens where id = $1`, [token.id]),
        );
        expect(seen, actor).toEqual([]);
      }
      // The supervisor manages the organization's teams' tokens (settings/teams/api).
      for (const actor of ['teamAdmin', 'owner', 'supervisor', 'staff'] as const) {
        const seen = await asActor(db, cast[actor].id, (as) =>
          ids(as, `select id from public.api_tokens where id = $1`, [token.id]),
        );
        expect(seen, actor).toEqual([token.id]);
      }
      await expectRefusedAs(
        db,
        cast.teamAdmin.id,
        `insert into public.api_tokens (account_id, name, token_hash, token_prefix)
         values ($1, 'Mine', sha256('chosen'::bytea), 'slt_mine')`,
        [cast.team.accountId],
      );
      await asActor(db, cast.teamAdmin.id, async (as) => {
        const renamed = await as.query(
          `update public.api_tokens set name = 'Deploys' where id = $1`,
          [token.id],
        );
        expect(renamed.rowCount).toBe(1);
      });
      await asActor(db, cast.teamAdmin.id, (as) =>
        expectProtectedColumn(
          as.query(
            `update public.api_tokens set token_hash = sha256('other'::bytea) where id = $1`,
            [token.id],
          ),
          'token_hash',
        ),
      );
      await asActor(db, confirmed(cast.teamAdmin), async (as) => {
        const revoked = await as.query(`delete from public.api_tokens where id = $1`, [token.id]);
        expect(revoked.rowCount).toBe(1);
      });
      await expectRefusedAs(db, null, `select id from public.api_tokens`);
    }));
});

describe('alias routes by actor', () => {
  const addRoute = `insert into public.alias_routes (alias_id, account_id, position, url)
    values ($1, $2, 0, 'https://example.com/elsewhere') returning id`;

  it('whoever manages a link (with redirect routes) adds routes and rules; readers only read', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const team = cast.team.accountId;
      // The member made this link, so they manage it.
      const route = await asActor(db, cast.member.id, (as) =>
        one<{ id: string }>(as, addRoute, [links.teamByMember.id, team]),
      );
      await asActor(db, cast.member.id, (as) =>
        as.query(
          `insert into public.alias_route_rules (route_id, account_id, position, value_id,
             condition_id, operation_id, operands)
           values ($1, $2, 0, 'country', 'if', 'in', '{DE,AT}')`,
          [route.id, team],
        ),
      );
      // Not the member's link, and members do not manage others' links.
      await expectRefusedAs(db, cast.member.id, addRoute, [links.teamByAdmin.id, team]);
      await expectRefusedAs(db, cast.viewer.id, addRoute, [links.teamByAdmin.id, team]);
      await asActor(db, cast.viewer.id, async (as) => {
        const seen = await ids(as, `select id from public.alias_routes where alias_id = $1`, [
          links.teamByMember.id,
        ]);
        expect(seen).toEqual([route.id]);
        const rules = await as.query(`select 1 from public.alias_route_rules where route_id = $1`, [
          route.id,
        ]);
        expect(rules.rowCount).toBe(1);
        const removed = await as.query(`delete from public.alias_routes where id = $1`, [route.id]);
        expect(removed.rowCount).toBe(0);
      });
      await asActor(db, cast.teamAdmin.id, async (as) => {
        await as.query(addRoute, [links.teamByAdmin.id, team]);
        const removed = await as.query(`delete from public.alias_routes where id = $1`, [route.id]);
        expect(removed.rowCount).toBe(1);
      });
      const strangerSeen = await asActor(db, cast.stranger.id, (as) =>
        ids(
          as,
          `select id from public.alias_routes where account_id = $1
           union all select id from public.alias_route_rules where account_id = $1`,
          [team],
        ),
      );
      expect(strangerSeen).toEqual([]);
    }));

  it('without the redirect_routes feature nobody adds a route, not even the owner', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      // The stranger's personal account has no plan with redirect_routes.
      await expectRefusedAs(db, cast.stranger.id, addRoute, [
        links.stranger.id,
        cast.stranger.personalAccountId,
      ]);
    }));
});

describe('alias route rules', () => {
  it("use the builder's vocabulary: operations where the condition takes one, of the value's type, with the right operands", () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const team = cast.team.accountId;
      const route = await one<{ id: string }>(
        db,
        `insert into public.alias_routes (alias_id, account_id, position, url)
         values ($1, $2, 0, 'https://example.com/de') returning id`,
        [links.teamByMember.id, team],
      );
      const addRule = (rule: [string, string, string | null, string[]]) =>
        asActor(db, cast.member.id, (as) =>
          as.query(
            `insert into public.alias_route_rules (route_id, account_id, position, value_id,
               condition_id, operation_id, operands)
             values ($1, $2, 0, $3, $4, $5, $6)`,
            [route.id, team, ...rule],
          ),
        );
      const wrong: [string, [string, string, string | null, string[]]][] = [
        ['an operation is needed after "if"', ['country', 'if', null, ['DE']]],
        ['"always" takes no operation', ['country', 'always', 'equals', ['DE']]],
        ['"contains" does not apply to numbers', ['clicks', 'if', 'contains', ['1']]],
        ['"equals" takes one value', ['country', 'if', 'equals', ['DE', 'AT']]],
        ['"is one of" takes at least one value', ['country', 'if', 'in', []]],
        ['devices are fixed choices', ['device', 'if', 'equals', ['toaster']]],
      ];
      for (const [why, rule] of wrong) {
        const error = await expectLinkError(addRule(rule), 'route_rule_invalid');
        expect(error.detail, why).toBeTruthy();
      }
      await addRule(['device', 'if', 'in', ['mobile', 'tablet']]);
    }));
});

describe('search_links', () => {
  it("finds an account's links by part of the alias or the destination, as the caller may see them", () =>
    withRollback(pool, async (db) => {
      const { cast, domain } = await createLinkScene(db);
      const team = cast.team.accountId;
      const base = { accountId: team, createdBy: cast.member.id, domainId: domain.id };
      const byAlias = await createLink(db, { ...base, alias: 'summer-Launch-2031' });
      const byUrl = await createLink(db, { ...base, url: 'https://shop.example.com/launch_day' });
      await createLink(db, { ...base, alias: 'unrelated', url: 'https://example.org/x' });
      await createLink(db, { ...base, alias: 'gone-launch', status: 'deleted' });
      const search = (actor: string, query: string) =>
        asActor(db, actor, (as) =>
          ids(as, `select id from public.search_links($1, $2)`, [team, query]),
        );
      expect(await search(cast.viewer.id, 'LAUNCH')).toEqual([byAlias.id, byUrl.id].sort());
      // % and _ match themselves, not any characters.
      expect(await search(cast.viewer.id, 'launch_')).toEqual([byUrl.id]);
      expect(await search(cast.viewer.id, '%')).toEqual([]);
      expect(await search(cast.stranger.id, 'launch')).toEqual([]);
    }));
});
