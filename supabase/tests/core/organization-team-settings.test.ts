import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  addOrgUserWith,
  all,
  confirmed,
  createCast,
  createInvitation,
  expectCoded,
  expectProtectedColumn,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
  type Actor,
} from '../support/index.ts';

/**
 * The writes of organizations/{org}/settings/teams, …/members and …/api
 * (20261122004400_organization_team_settings.sql and the RPCs they reuse) by actor: owner, org
 * users with and without teams, members and supervisor; team admin, member, viewer; stranger;
 * staff. Each change leaves its audit row, which only readers of the trail see.
 */
const pool = useDatabase();

/** The cast plus organization users whose roles hold `teams`, `members` or `audit` alone. */
async function scene(db: pg.ClientBase) {
  const cast = await createCast(db);
  return {
    ...cast,
    orgTeams: await addOrgUserWith(db, cast, 'teams'),
    orgMembers: await addOrgUserWith(db, cast, 'members'),
    orgAuditor: await addOrgUserWith(db, cast, 'audit'),
  };
}
type Scene = Awaited<ReturnType<typeof scene>>;

const lastEventId = async (db: pg.ClientBase) =>
  (await one<{ id: number }>(db, `select coalesce(max(id), 0)::int as id from public.audit_events`))
    .id;

/** The organization's events after `afterId` as postgres sees them, oldest first. */
const eventsSince = (db: pg.ClientBase, organizationId: string, afterId: number) =>
  all<{ action: string; target: string | null; actor_id: string | null }>(
    db,
    `select action, target, actor_id from public.audit_events
     where organization_id = $1 and id > $2 order by id`,
    [organizationId, afterId],
  );

describe('organization_teams (the settings/teams list) by actor', () => {
  const list = (db: pg.ClientBase, actor: Actor, s: Scene) =>
    queryAs<{ slug: string; members: string; links: string; archived_at: string | null }>(
      db,
      actor,
      `select slug, members, links, archived_at from public.organization_teams($1)`,
      [s.organization.id],
    );

  it('owner and holders of teams, members or supervisor read every team with its counts', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await db.query(
        `insert into app.link_counts (account_id, month, shard, links) values
           ($1, date_trunc('month', now()), 0, 3), ($1, date_trunc('month', now()), 1, 2)`,
        [s.team.accountId],
      );
      for (const actor of [s.owner, s.orgTeams, s.orgMembers, s.supervisor]) {
        const { rows } = await list(db, actor.id, s);
        // The admin, member and viewer; five links over two shards.
        expect(rows).toEqual([{ slug: s.team.slug, members: '3', links: '5', archived_at: null }]);
      }
    }));

  it('org users without those permissions, team people, strangers and staff are refused', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      for (const actor of [s.orgUser, s.orgAuditor, s.teamAdmin, s.member, s.viewer]) {
        await expectCoded(list(db, actor.id, s), 'permission_denied');
      }
      for (const actor of [s.stranger, s.staff]) {
        await expectCoded(list(db, actor.id, s), 'organization_not_found');
      }
      await expectRefused(list(db, null, s));
    }));
});

describe('create_team in the organization by actor', () => {
  const create = (db: pg.ClientBase, actor: Actor, s: Scene, slug: string) =>
    queryAs<{ id: string }>(db, actor, `select public.create_team('Sales', $1, $2) as id`, [
      slug,
      s.organization.id,
    ]);

  it('owner and holders of teams create a team; the audit trail says who', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      const before = await lastEventId(db);
      await create(db, s.owner.id, s, 'sales-owner');
      await create(db, s.orgTeams.id, s, 'sales-org');
      const created = (await eventsSince(db, s.organization.id, before)).filter(
        (event) => event.action === 'team.created',
      );
      expect(created).toEqual([
        { action: 'team.created', target: 'Sales', actor_id: s.owner.id },
        { action: 'team.created', target: 'Sales', actor_id: s.orgTeams.id },
      ]);
    }));

  it('everyone else is refused, and a plan without room says the spec message', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      for (const actor of [
        s.orgUser,
        s.orgMembers,
        s.supervisor,
        s.teamAdmin,
        s.member,
        s.viewer,
      ]) {
        await expectCoded(create(db, actor.id, s, 'nope'), 'permission_denied');
      }
      for (const actor of [s.stranger, s.staff]) {
        await expectCoded(create(db, actor.id, s, 'nope'), 'organization_not_found');
      }
      await db.query(
        `insert into public.account_usage (account_id, name, "limit") values ($1, 'max_teams', 1)`,
        [s.organization.accountId],
      );
      await expectCoded(create(db, s.owner.id, s, 'one-too-many'), 'team_limit_reached');
    }));
});

describe('update_team (rename) from settings/teams: audited', () => {
  it('writes team.updated with the new name; the team admin may rename, the supervisor not', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      const before = await lastEventId(db);
      await queryAs(db, s.orgTeams.id, `select public.update_team($1, 'Growth', 'growth')`, [
        s.team.id,
      ]);
      await queryAs(db, s.teamAdmin.id, `select public.update_team($1, 'Growth 2', 'growth')`, [
        s.team.id,
      ]);
      for (const actor of [s.supervisor, s.orgMembers, s.member, s.viewer]) {
        await expectCoded(
          queryAs(db, actor.id, `select public.update_team($1, 'X', 'x')`, [s.team.id]),
          'permission_denied',
        );
      }
      expect(await eventsSince(db, s.organization.id, before)).toEqual([
        { action: 'team.updated', target: 'Growth', actor_id: s.orgTeams.id },
        { action: 'team.updated', target: 'Growth 2', actor_id: s.teamAdmin.id },
      ]);
    }));
});

describe('archive_team by actor', () => {
  const archive = (db: pg.ClientBase, actor: Actor, s: Scene, value: boolean | null) =>
    queryAs<{ archived: boolean }>(
      db,
      actor,
      `select archived_at is not null as archived from public.archive_team($1, $2)`,
      [s.team.id, value],
    );

  it('owner and holders of teams archive and unarchive; audited as team.archived / unarchived', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      const before = await lastEventId(db);
      expect((await archive(db, s.owner.id, s, true)).rows).toEqual([{ archived: true }]);
      // Archiving again changes nothing and writes nothing.
      expect((await archive(db, s.orgTeams.id, s, true)).rows).toEqual([{ archived: true }]);
      expect((await archive(db, s.orgTeams.id, s, false)).rows).toEqual([{ archived: false }]);
      expect(await eventsSince(db, s.organization.id, before)).toEqual([
        { action: 'team.archived', target: expect.any(String), actor_id: s.owner.id },
        { action: 'team.unarchived', target: expect.any(String), actor_id: s.orgTeams.id },
      ]);
      await expectCoded(archive(db, s.owner.id, s, null), 'archive_invalid');
    }));

  it('whoever works in the team leaves team mode when it is archived', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await queryAs(db, s.member.id, `select public.switch_team($1)`, [s.team.id]);
      await archive(db, s.owner.id, s, true);
      expect(
        await one(db, `select current_team_id, team_mode from public.profiles where id = $1`, [
          s.member.id,
        ]),
      ).toEqual({ current_team_id: null, team_mode: false });
      await expectCoded(
        queryAs(db, s.member.id, `select public.switch_team($1)`, [s.team.id]),
        'unknown_team',
      );
    }));

  it('everyone else is refused; nobody archives through a plain update', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      for (const actor of [
        s.orgUser,
        s.orgMembers,
        s.supervisor,
        s.teamAdmin,
        s.member,
        s.viewer,
      ]) {
        await expectCoded(archive(db, actor.id, s, true), 'permission_denied');
      }
      for (const actor of [s.stranger, s.staff]) {
        await expectCoded(archive(db, actor.id, s, true), 'unknown_team');
      }
      await expectRefused(archive(db, null, s, true));
      // The team admin holds `settings` (the update policy), but archiving is not theirs.
      await expectProtectedColumn(
        queryAs(db, s.teamAdmin.id, `update public.teams set archived_at = now() where id = $1`, [
          s.team.id,
        ]),
        'archived_at',
      );
      expect(
        await one(db, `select archived_at from public.teams where id = $1`, [s.team.id]),
      ).toEqual({ archived_at: null });
    }));
});

describe('add_team_member by actor', () => {
  const add = (db: pg.ClientBase, actor: Actor, s: Scene, userId: string, role = 'member') =>
    queryAs<{ role: string }>(db, actor, `select role from public.add_team_member($1, $2, $3)`, [
      s.team.id,
      userId,
      role,
    ]);
  const roleOf = async (db: pg.ClientBase, s: Scene, userId: string) =>
    (
      await all<{ role: string }>(
        db,
        `select role from public.team_members where team_id = $1 and user_id = $2`,
        [s.team.id, userId],
      )
    )[0]?.role ?? null;

  it('owner, holders of members or teams and the team admin put org people on the team; audited', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      const before = await lastEventId(db);
      const cases = [
        [s.owner, s.orgUser, 'viewer'],
        [s.orgMembers, s.supervisor, 'member'],
        [s.orgTeams, s.orgAuditor, 'admin'],
        [s.teamAdmin, s.orgTeams, 'viewer'],
      ] as const;
      for (const [actor, target, role] of cases) {
        expect((await add(db, actor.id, s, target.id, role)).rows).toEqual([{ role }]);
        expect(await roleOf(db, s, target.id)).toBe(role);
      }
      const events = await eventsSince(db, s.organization.id, before);
      expect(events.map(({ action, actor_id }) => ({ action, actor_id }))).toEqual(
        cases.map(([actor]) => ({ action: 'team_member.created', actor_id: actor.id })),
      );
      expect(events[0]?.target).toBe(`${s.orgUser.email} in ${await teamName(db, s)}`);
    }));

  it('member, viewer, supervisor and org users without members are refused; outsiders see no team', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      for (const actor of [s.member, s.viewer, s.supervisor, s.orgUser, s.orgAuditor]) {
        await expectCoded(add(db, actor.id, s, s.orgMembers.id), 'permission_denied');
      }
      for (const actor of [s.stranger, s.staff]) {
        await expectCoded(add(db, actor.id, s, s.orgMembers.id), 'unknown_team');
      }
      await expectRefused(add(db, null, s, s.orgMembers.id));
      expect(await roleOf(db, s, s.orgMembers.id)).toBeNull();
    }));

  it('only organization people, once, with a known role, within the seats', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await expectCoded(add(db, s.owner.id, s, s.stranger.id), 'not_organization_user');
      await expectCoded(add(db, s.owner.id, s, s.orgUser.id, 'boss'), 'role_invalid');
      await expectCoded(add(db, s.owner.id, s, s.member.id), 'already_member');
      // Someone with a pending invitation to the team is "already invited".
      await createInvitation(db, {
        inviterId: s.owner.id,
        email: s.orgAuditor.email,
        teamId: s.team.id,
        teamRole: 'viewer',
      });
      await expectCoded(add(db, s.owner.id, s, s.orgAuditor.id), 'already_member');
      // Three members and one pending invitation fill four seats.
      await db.query(
        `insert into public.account_usage (account_id, name, "limit") values ($1, 'max_members', 4)`,
        [s.team.accountId],
      );
      await expectCoded(add(db, s.owner.id, s, s.orgUser.id), 'team_limit_reached');
      // A direct insert under the table's policy meets the same seat rule.
      await expectCoded(
        queryAs(
          db,
          s.orgMembers.id,
          `insert into public.team_members (team_id, user_id, role) values ($1, $2, 'viewer')`,
          [s.team.id, s.orgUser.id],
        ),
        'team_limit_reached',
      );
      expect(await roleOf(db, s, s.orgUser.id)).toBeNull();
    }));
});

async function teamName(db: pg.ClientBase, s: Scene) {
  return (
    await one<{ name: string }>(db, `select name from public.teams where id = $1`, [s.team.id])
  ).name;
}

describe('change_team_member_role and remove_team_member from settings/teams/members', () => {
  const change = (db: pg.ClientBase, actor: Actor, s: Scene, role: string) =>
    queryAs(db, actor, `select public.change_team_member_role($1, $2, $3)`, [
      s.team.id,
      s.viewer.id,
      role,
    ]);
  const remove = (db: pg.ClientBase, actor: Actor, s: Scene) =>
    queryAs(db, actor, `select public.remove_team_member($1, $2)`, [s.team.id, s.viewer.id]);

  it('holders of members (org role or team admin) and the owner change roles and remove; audited', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      const before = await lastEventId(db);
      await change(db, s.orgMembers.id, s, 'member');
      await change(db, s.orgTeams.id, s, 'admin');
      await change(db, s.teamAdmin.id, s, 'viewer');
      await remove(db, s.owner.id, s);
      expect(
        (await eventsSince(db, s.organization.id, before)).map(({ action, actor_id }) => ({
          action,
          actor_id,
        })),
      ).toEqual([
        { action: 'team_member.updated', actor_id: s.orgMembers.id },
        { action: 'team_member.updated', actor_id: s.orgTeams.id },
        { action: 'team_member.updated', actor_id: s.teamAdmin.id },
        { action: 'team_member.deleted', actor_id: s.owner.id },
      ]);
    }));

  it('everyone else is refused and nothing changes', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      for (const actor of [s.member, s.supervisor, s.orgUser, s.orgAuditor]) {
        await expectCoded(change(db, actor.id, s, 'admin'), 'permission_denied');
        await expectCoded(remove(db, actor.id, s), 'permission_denied');
      }
      for (const actor of [s.stranger, s.staff]) {
        await expectCoded(change(db, actor.id, s, 'admin'), 'unknown_team');
        await expectCoded(remove(db, actor.id, s), 'unknown_team');
      }
      // The viewer cannot change their own membership here.
      await expectCoded(change(db, s.viewer.id, s, 'admin'), 'permission_denied');
      expect(
        await one(db, `select role from public.team_members where team_id = $1 and user_id = $2`, [
          s.team.id,
          s.viewer.id,
        ]),
      ).toEqual({ role: 'viewer' });
    }));
});

describe("the teams' API tokens from settings/teams/api", () => {
  const mint = (db: pg.ClientBase, actor: Actor, s: Scene) =>
    queryAs<{ id: string }>(
      db,
      actor,
      `select (public.create_api_token('Deploys', (app.api_token_abilities())[1:1], $1)) ->> 'id' as id`,
      [s.team.accountId],
    );

  it('owner, supervisor and team admin mint and revoke team tokens; audited', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await db.query(`update public.accounts set features = array['use_api'] where id = $1`, [
        s.team.accountId,
      ]);
      const before = await lastEventId(db);
      for (const actor of [s.owner, s.supervisor, s.teamAdmin]) {
        const {
          rows: [token],
        } = await mint(db, confirmed(actor), s);
        await queryAs(db, confirmed(actor), `select public.revoke_api_token($1)`, [token!.id]);
      }
      expect(
        (await eventsSince(db, s.organization.id, before)).map(({ action, actor_id }) => ({
          action,
          actor_id,
        })),
      ).toEqual(
        [s.owner, s.supervisor, s.teamAdmin].flatMap((actor) => [
          { action: 'api_token.created', actor_id: actor.id },
          { action: 'api_token.deleted', actor_id: actor.id },
        ]),
      );
    }));

  it('holders of teams or members alone, member, viewer, strangers and staff mint nothing', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await db.query(`update public.accounts set features = array['use_api'] where id = $1`, [
        s.team.accountId,
      ]);
      for (const actor of [
        s.orgTeams,
        s.orgMembers,
        s.orgUser,
        s.member,
        s.viewer,
        s.stranger,
        s.staff,
      ]) {
        await expectCoded(mint(db, confirmed(actor), s), 'permission_denied', { hint: 'form' });
      }
      expect(
        await one(db, `select count(*)::int as n from public.api_tokens where account_id = $1`, [
          s.team.accountId,
        ]),
      ).toEqual({ n: 0 });
    }));
});

describe('the trail of these changes: only readers of the audit trail see it', () => {
  it('owner, holders of audit and staff read it; everyone else is refused or sees no row', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await queryAs(db, s.owner.id, `select public.archive_team($1, true)`, [s.team.id]);
      const trail = (actor: Actor) =>
        queryAs<{ action: string }>(
          db,
          actor,
          `select action from public.organization_audit_trail($1, p_action => 'team.archived')`,
          [s.organization.id],
        );
      for (const actor of [s.owner, s.orgAuditor, s.staff]) {
        expect((await trail(actor.id)).rows).toEqual([{ action: 'team.archived' }]);
      }
      for (const actor of [
        s.orgTeams,
        s.orgMembers,
        s.supervisor,
        s.orgUser,
        s.teamAdmin,
        s.member,
        s.viewer,
        s.stranger,
      ]) {
        await expectCoded(trail(actor.id), 'permission_denied');
        const { rows } = await queryAs(
          db,
          actor.id,
          `select id from public.audit_events where organization_id = $1`,
          [s.organization.id],
        );
        expect(rows).toEqual([]);
      }
    }));
});
