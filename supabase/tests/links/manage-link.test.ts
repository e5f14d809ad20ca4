import type pg from 'pg';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asActor, one, useDatabase, withRollback, type Actor } from '../support/index.ts';
import {
  callUpdateLink,
  createLink,
  expectLinkError,
  expectRefusedAs,
  LINK_FEATURES,
  type UpdateLinkArgs,
} from './fixtures.ts';
import { createLinkScene } from './scene.ts';

/**
 * update_link, archive_link, delete_link and remove_link_tag, rule by rule: who may act on which
 * link, and what each change requires.
 */
const pool = useDatabase();

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

function updateAs(db: pg.ClientBase, actor: Actor, aliasId: string, args: UpdateLinkArgs) {
  return asActor(db, actor, (as) => callUpdateLink(as, aliasId, args));
}

function rpcAs<T>(db: pg.ClientBase, actor: Actor, sql: string, params: unknown[]) {
  return asActor(db, actor, (as) => one<{ result: T }>(as, sql, params)).then((r) => r.result);
}

const archive = (db: pg.ClientBase, actor: Actor, aliasId: string, archived = true) =>
  rpcAs<{ aliases: { status: string }[] }>(
    db,
    actor,
    `select public.archive_link($1, $2) as result`,
    [aliasId, archived],
  );
const remove = (db: pg.ClientBase, actor: Actor, aliasId: string) =>
  rpcAs<null>(db, actor, `select public.delete_link($1) as result`, [aliasId]);
const untag = (db: pg.ClientBase, actor: Actor, aliasId: string, tag: string) =>
  rpcAs<{ aliases: { tags: string[] }[] }>(
    db,
    actor,
    `select public.remove_link_tag($1, $2) as result`,
    [aliasId, tag],
  );

async function statusOf(db: pg.ClientBase, aliasId: string) {
  return (
    await one<{ status: string }>(db, `select status from public.aliases where id = $1`, [aliasId])
  ).status;
}

describe('who may change a link', () => {
  it('link managers change any link of the team; members their own; viewers none', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const args = { description: 'Updated' };
      await updateAs(db, cast.teamAdmin.id, links.teamByMember.id, args);
      await updateAs(db, cast.supervisor.id, links.teamByMember.id, args);
      await updateAs(db, cast.owner.id, links.teamByAdmin.id, args);
      await updateAs(db, cast.member.id, links.teamByMember.id, args);
      await expectLinkError(
        updateAs(db, cast.member.id, links.teamByAdmin.id, args),
        'permission_denied',
      );
      await expectLinkError(
        updateAs(db, cast.viewer.id, links.teamByMember.id, args),
        'permission_denied',
      );
    }));

  it('links the caller cannot see, unknown ones and deleted ones are not found', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const args = { description: 'x' };
      await expectLinkError(
        updateAs(db, cast.stranger.id, links.teamByMember.id, args),
        'alias_not_found',
      );
      await expectLinkError(
        updateAs(db, cast.orgUser.id, links.teamByMember.id, args),
        'alias_not_found',
      );
      await expectLinkError(updateAs(db, cast.member.id, randomUUID(), args), 'alias_not_found');
      await expectLinkError(updateAs(db, cast.staff.id, links.guest.id, args), 'alias_not_found');
      await db.query(`update public.aliases set status = 'deleted' where id = $1`, [
        links.teamByAdmin.id,
      ]);
      await expectLinkError(
        updateAs(db, cast.teamAdmin.id, links.teamByAdmin.id, args),
        'alias_not_found',
      );
    }));

  it('a terminated link cannot be changed by its owners', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      await db.query(`update public.aliases set status = 'terminated' where id = $1`, [
        links.teamByMember.id,
      ]);
      await expectLinkError(
        updateAs(db, cast.teamAdmin.id, links.teamByMember.id, { description: 'x' }),
        'permission_denied',
      );
      await expectLinkError(
        archive(db, cast.teamAdmin.id, links.teamByMember.id),
        'permission_denied',
      );
    }));

  it('anonymous callers cannot call the link RPCs', () =>
    withRollback(pool, async (db) => {
      const { links } = await createLinkScene(db);
      const id = links.guest.id;
      await expectRefusedAs(db, null, `select public.update_link($1, p_description => 'x')`, [id]);
      await expectRefusedAs(db, null, `select public.archive_link($1)`, [id]);
      await expectRefusedAs(db, null, `select public.delete_link($1)`, [id]);
      await expectRefusedAs(db, null, `select public.remove_link_tag($1, 'x')`, [id]);
    }));
});

describe('update_link: the alias', () => {
  it('renames to a free, valid, unreserved alias with use_custom_alias', () =>
    withRollback(pool, async (db) => {
      const { cast, links, domain } = await createLinkScene(db);
      const renamed = await updateAs(db, cast.member.id, links.teamByMember.id, {
        alias: 'Renamed-1',
      });
      expect(renamed.aliases[0]?.alias).toBe('Renamed-1');
      // Only the case changes: still this link's alias.
      await updateAs(db, cast.member.id, links.teamByMember.id, { alias: 'renamed-1' });
      await createLink(db, {
        accountId: null,
        createdBy: null,
        domainId: domain.id,
        alias: 'taken',
      });
      await expectLinkError(
        updateAs(db, cast.member.id, links.teamByMember.id, { alias: 'TAKEN' }),
        'alias_taken',
      );
      await expectLinkError(
        updateAs(db, cast.member.id, links.teamByMember.id, { alias: 'no spaces' }),
        'alias_invalid',
      );
      await expectLinkError(
        updateAs(db, cast.member.id, links.teamByMember.id, { alias: '' }),
        'alias_invalid',
      );
      await expectLinkError(
        updateAs(db, cast.member.id, links.teamByMember.id, { alias: 'pricing' }),
        'alias_reserved',
      );
    }));

  it('needs use_custom_alias', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      await expectLinkError(
        updateAs(db, cast.stranger.id, links.stranger.id, { alias: 'my-name' }),
        'custom_alias_not_allowed',
      );
    }));
});

describe('update_link: the destination', () => {
  it('changes only with change_long_url (a paid account)', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const moved = await updateAs(db, cast.member.id, links.teamByMember.id, {
        url: 'https://example.com/new-destination',
      });
      expect(moved.url).toBe('https://example.com/new-destination');
      expect(moved.aliases[0]?.is_main).toBe(true);
      await expectLinkError(
        updateAs(db, cast.stranger.id, links.stranger.id, { url: 'https://example.com/elsewhere' }),
        'paid_only',
      );
      // The same destination again is no change, so no payment is needed.
      const current = await one<{ url: string }>(
        db,
        `select u.url from public.long_urls u where u.id = $1`,
        [links.stranger.longUrlId],
      );
      await updateAs(db, cast.stranger.id, links.stranger.id, { url: current.url });
    }));

  it('moving the main alias hands "main" to the oldest alias left on the old destination', () =>
    withRollback(pool, async (db) => {
      const { cast, domain } = await createLinkScene(db);
      const base = {
        accountId: cast.team.accountId,
        createdBy: cast.member.id,
        domainId: domain.id,
        url: 'https://example.com/shared',
      };
      const first = await createLink(db, { ...base, createdAt: new Date(Date.now() - 60_000) });
      const second = await createLink(db, base);
      await updateAs(db, cast.member.id, first.id, { url: 'https://example.com/moved' });
      const main = await one<{ is_main: boolean }>(
        db,
        `select is_main from public.aliases where id = $1`,
        [second.id],
      );
      expect(main.is_main).toBe(true);
    }));

  it('follows the URL rules', () =>
    withRollback(pool, async (db) => {
      const { cast, links, domain } = await createLinkScene(db);
      const id = links.teamByMember.id;
      await expectLinkError(
        updateAs(db, cast.member.id, id, { url: 'mailto:x@example.com' }),
        'url_not_allowed',
      );
      await expectLinkError(updateAs(db, cast.member.id, id, { url: 'https://' }), 'url_invalid');
      await expectLinkError(
        updateAs(db, cast.member.id, id, { url: `https://${domain.domain}/x` }),
        'url_not_allowed',
      );
    }));
});

describe('update_link: tags, expiry and description', () => {
  it('replaces the tags (normalized, per-index errors); an empty list removes them', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const id = links.teamByMember.id;
      const tagged = await updateAs(db, cast.member.id, id, { tags: ['New Tag', 'other'] });
      expect(tagged.aliases[0]?.tags).toEqual(['newtag', 'other']);
      await expectLinkError(
        updateAs(db, cast.member.id, id, { tags: ['ok', 'ok'] }),
        'tag_duplicate',
        {
          hint: 'tags.1',
        },
      );
      const cleared = await updateAs(db, cast.member.id, id, { tags: [] });
      expect(cleared.aliases[0]?.tags).toEqual([]);
      await expectLinkError(
        updateAs(db, cast.stranger.id, links.stranger.id, { tags: ['mine'] }),
        'tags_not_allowed',
      );
    }));

  it('sets and removes the expiry with manage_expiration, within 5 minutes to 5 years', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const id = links.teamByMember.id;
      const set = await updateAs(db, cast.member.id, id, { expiresAt: minutes(60) });
      expect(set.aliases[0]?.expires_at).not.toBeNull();
      const removed = await updateAs(db, cast.member.id, id, { removeExpiry: true });
      expect(removed.aliases[0]?.expires_at).toBeNull();
      await expectLinkError(
        updateAs(db, cast.member.id, id, { expiresAt: minutes(1) }),
        'expiry_too_soon',
      );
      await expectLinkError(
        updateAs(db, cast.member.id, id, { expiresAt: minutes(6 * 365 * 24 * 60) }),
        'expiry_too_far',
      );
      await expectLinkError(
        updateAs(db, cast.stranger.id, links.stranger.id, { expiresAt: minutes(60) }),
        'expiry_not_allowed',
      );
    }));

  it('a description only on links made in an organization; an empty one removes it', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const described = await updateAs(db, cast.member.id, links.orgPersonal.id, {
        description: 'Mine',
      });
      expect(described.aliases[0]?.description).toBe('Mine');
      const cleared = await updateAs(db, cast.member.id, links.orgPersonal.id, { description: '' });
      expect(cleared.aliases[0]?.description).toBeNull();
      await expectLinkError(
        updateAs(db, cast.stranger.id, links.stranger.id, { description: 'Mine' }),
        'description_not_allowed',
      );
    }));
});

describe('archive_link, delete_link and remove_link_tag', () => {
  it('archives and restores a link; restoring counts against the active-alias limit', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const id = links.teamByMember.id;
      const archived = await archive(db, cast.member.id, id);
      expect(archived.aliases[0]?.status).toBe('archived');
      const restored = await archive(db, cast.member.id, id, false);
      expect(restored.aliases[0]?.status).toBe('active');
      await archive(db, cast.member.id, id);
      await db.query(
        `insert into public.account_usage (account_id, name, "limit") values ($1, 'max_active_aliases', 1)`,
        [cast.team.accountId],
      );
      // teamByAdmin is still active: restoring a second one would exceed the limit of 1.
      await expectLinkError(archive(db, cast.member.id, id, false), 'plan_limit_reached');
      await expectLinkError(archive(db, cast.viewer.id, links.teamByAdmin.id), 'permission_denied');
      await expectLinkError(archive(db, cast.stranger.id, id), 'alias_not_found');
    }));

  it('deletes softly: the row stays, the link is gone for its owners, the alias stays taken', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const id = links.teamByAdmin.id;
      await expectLinkError(remove(db, cast.member.id, id), 'permission_denied');
      await remove(db, cast.teamAdmin.id, id);
      expect(await statusOf(db, id)).toBe('deleted');
      await expectLinkError(remove(db, cast.teamAdmin.id, id), 'alias_not_found');
      await expectLinkError(
        updateAs(db, cast.member.id, links.teamByMember.id, { alias: links.teamByAdmin.alias }),
        'alias_taken',
      );
    }));

  it('removes a tag from a link; a tag the link does not carry is not found', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const id = links.teamByMember.id;
      const untagged = await untag(db, cast.member.id, id, 'Team-Tag');
      expect(untagged.aliases[0]?.tags).toEqual([]);
      await expectLinkError(untag(db, cast.member.id, id, 'team-tag'), 'tag_not_found');
      await expectLinkError(untag(db, cast.viewer.id, id, 'team-tag'), 'permission_denied');
    }));
});

describe('plans of the scene', () => {
  it('the scene is on a plan with every link feature (the other tests rely on it)', () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      const features = await asActor(db, cast.member.id, (as) =>
        one<{ features: string[] }>(
          as,
          `select array(select f from unnest($2::text[]) f where app.account_has_feature($1, f) order by f) as features`,
          [cast.team.accountId, LINK_FEATURES],
        ),
      );
      expect(features.features).toEqual([...LINK_FEATURES].sort());
    }));
});
