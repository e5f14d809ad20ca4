import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  addOrgUserWith,
  addTeamMember,
  all,
  createCast,
  createInvitation,
  createTeam,
  expectCoded,
  expectProtectedColumn,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';

/**
 * The team pages' writes (20261122003700_team_administration.sql) by actor: team profile,
 * photo, member roles, removal, leaving, the seat limit on invitations, team mode's cleanup,
 * preview features and an account's features.
 */
const pool = useDatabase();

/** The cast plus organization users whose roles hold `teams` or `members` alone. */
async function castWithOrgRoles(db: pg.ClientBase) {
  const cast = await createCast(db);
  return {
    ...cast,
    orgTeams: await addOrgUserWith(db, cast, 'teams'),
    orgMembers: await addOrgUserWith(db, cast, 'members'),
  };
}

type Actors = Awaited<ReturnType<typeof castWithOrgRoles>>;

const roleOf = async (db: pg.ClientBase, cast: Cast, userId: string) =>
  (
    await all<{ role: string }>(
      db,
      `select role from public.team_members where team_id = $1 and user_id = $2`,
      [cast.team.id, userId],
    )
  )[0]?.role ?? null;

describe('update_team by actor', () => {
  const rename = (db: pg.ClientBase, actor: string, cast: Cast, slug: string) =>
    queryAs<{ name: string; slug: string }>(
      db,
      actor,
      `select name, slug from public.update_team($1, ' Growth ', $2)`,
      [cast.team.id, slug],
    );

  it('owner, team admin and an org user with `teams` rename the team; its account follows', () =>
    withRollback(pool, async (db) => {
      const cast = await castWithOrgRoles(db);
      for (const [actor, slug] of [
        [cast.owner, 'growth-owner'],
        [cast.teamAdmin, 'growth-admin'],
        [cast.orgTeams, 'growth-org'],
      ] as const) {
        const { rows } = await rename(db, actor.id, cast, slug);
        expect(rows).toEqual([{ name: 'Growth', slug }]);
      }
      expect(
        await one(db, `select name from public.accounts where id = $1`, [cast.team.accountId]),
      ).toEqual({ name: 'Growth' });
    }));

  it('member, viewer and org users without `teams` are refused; strangers and staff do not see the team', () =>
    withRollback(pool, async (db) => {
      const cast = await castWithOrgRoles(db);
      for (const actor of [cast.member, cast.viewer, cast.orgUser, cast.orgMembers]) {
        await expectCoded(rename(db, actor.id, cast, 'nope'), 'permission_denied');
      }
      for (const actor of [cast.stranger, cast.staff]) {
        await expectCoded(rename(db, actor.id, cast, 'nope'), 'unknown_team');
      }
      await expectRefused(
        queryAs(db, null, `select public.update_team($1, 'x', 'x')`, [cast.team.id]),
      );
      expect(await one(db, `select slug from public.teams where id = $1`, [cast.team.id])).toEqual({
        slug: cast.team.slug,
      });
    }));

  it('checks name, slug form and the slug being free in the organization', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await createTeam(db, {
        ownerId: cast.owner.id,
        organizationId: cast.organization.id,
        slug: 'taken-slug',
      });
      const call = (name: string, slug: string) =>
        queryAs(db, cast.teamAdmin.id, `select public.update_team($1, $2, $3)`, [
          cast.team.id,
          name,
          slug,
        ]);
      await expectCoded(call(' ', 'fine'), 'name_required');
      await expectCoded(call('Fine', 'Not A Slug'), 'slug_invalid');
      await expectCoded(call('Fine', 'taken-slug'), 'slug_taken');
      await expectCoded(
        queryAs(db, cast.teamAdmin.id, `select public.update_team(null, 'a', 'a')`),
        'team_required',
      );
    }));
});

describe('team photo', () => {
  const photoUrl = (teamId: string) =>
    `http://127.0.0.1:54321/storage/v1/object/public/avatars/teams/${teamId}/${randomUUID()}.png`;
  const storeAs = (db: pg.ClientBase, actor: string, name: string) =>
    queryAs(
      db,
      actor,
      `insert into storage.objects (bucket_id, name, owner_id) values ('avatars', $1, $2)`,
      [name, actor],
    );

  it('team admin and an org user with `teams` store a photo and point the team at it', () =>
    withRollback(pool, async (db) => {
      const cast = await castWithOrgRoles(db);
      for (const actor of [cast.teamAdmin, cast.orgTeams, cast.owner]) {
        const stored = await storeAs(db, actor.id, `teams/${cast.team.id}/${randomUUID()}.png`);
        expect(stored.rowCount).toBe(1);
        const updated = await queryAs(
          db,
          actor.id,
          `update public.teams set photo_url = $2 where id = $1`,
          [cast.team.id, photoUrl(cast.team.id)],
        );
        expect(updated.rowCount).toBe(1);
      }
    }));

  it('member, viewer, org users without `teams`, strangers and staff may not store team photos', () =>
    withRollback(pool, async (db) => {
      const cast = await castWithOrgRoles(db);
      for (const actor of [
        cast.member,
        cast.viewer,
        cast.orgUser,
        cast.orgMembers,
        cast.stranger,
        cast.staff,
      ]) {
        await expectRefused(storeAs(db, actor.id, `teams/${cast.team.id}/${randomUUID()}.png`));
        const updated = await queryAs(
          db,
          actor.id,
          `update public.teams set photo_url = $2 where id = $1`,
          [cast.team.id, photoUrl(cast.team.id)],
        );
        expect(updated.rowCount).toBe(0);
      }
    }));

  it('a photo must be a png or jpg of the team folder, and the address must name one', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await expectRefused(storeAs(db, cast.teamAdmin.id, `teams/${cast.team.id}/evil.svg`));
      const bad = await queryAs(
        db,
        cast.teamAdmin.id,
        `update public.teams set photo_url = 'https://tracker.example/pixel.png' where id = $1`,
        [cast.team.id],
      ).catch((error: pg.DatabaseError) => error);
      expect((bad as pg.DatabaseError).code).toBe('23514');
    }));
});

describe('team members: change role and remove', () => {
  const change = (db: pg.ClientBase, actor: string, cast: Cast, userId: string, role: string) =>
    queryAs<{ role: string }>(
      db,
      actor,
      `select role from public.change_team_member_role($1, $2, $3)`,
      [cast.team.id, userId, role],
    );
  const remove = (db: pg.ClientBase, actor: string, cast: Cast, userId: string) =>
    queryAs(db, actor, `select public.remove_team_member($1, $2)`, [cast.team.id, userId]);

  it('owner, team admin and org users with `teams` or `members` change roles and remove members', () =>
    withRollback(pool, async (db) => {
      const cast: Actors = await castWithOrgRoles(db);
      for (const actor of [cast.owner, cast.teamAdmin, cast.orgTeams, cast.orgMembers]) {
        const { rows } = await change(db, actor.id, cast, cast.viewer.id, 'member');
        expect(rows).toEqual([{ role: 'member' }]);
        await change(db, actor.id, cast, cast.viewer.id, 'viewer');
      }
      expect(await roleOf(db, cast, cast.viewer.id)).toBe('viewer');
      await remove(db, cast.orgMembers.id, cast, cast.viewer.id);
      expect(await roleOf(db, cast, cast.viewer.id)).toBeNull();
    }));

  it('member, viewer and org users without `teams`/`members` are refused; strangers and staff do not see the team', () =>
    withRollback(pool, async (db) => {
      const cast = await castWithOrgRoles(db);
      for (const actor of [cast.member, cast.viewer, cast.orgUser]) {
        await expectCoded(
          change(db, actor.id, cast, cast.teamAdmin.id, 'viewer'),
          'permission_denied',
        );
        await expectCoded(remove(db, actor.id, cast, cast.teamAdmin.id), 'permission_denied');
      }
      for (const actor of [cast.stranger, cast.staff]) {
        await expectCoded(change(db, actor.id, cast, cast.member.id, 'viewer'), 'unknown_team');
        await expectCoded(remove(db, actor.id, cast, cast.member.id), 'unknown_team');
      }
      expect(await roleOf(db, cast, cast.teamAdmin.id)).toBe('admin');
      expect(await roleOf(db, cast, cast.member.id)).toBe('member');
    }));

  it('says when the person is not on the team, the role is unknown, or the target is oneself or the owner', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await expectCoded(
        change(db, cast.teamAdmin.id, cast, cast.stranger.id, 'viewer'),
        'user_not_in_team',
      );
      await expectCoded(remove(db, cast.teamAdmin.id, cast, cast.stranger.id), 'user_not_in_team');
      await expectCoded(
        change(db, cast.teamAdmin.id, cast, cast.member.id, 'superuser'),
        'role_invalid',
      );
      await expectCoded(
        change(db, cast.teamAdmin.id, cast, cast.teamAdmin.id, 'viewer'),
        'own_membership',
      );
      await expectCoded(remove(db, cast.teamAdmin.id, cast, cast.owner.id), 'team_owner_fixed');
    }));

  it('a removed member who worked in the team is back in their personal workspace', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await queryAs(db, cast.member.id, `select public.switch_team($1)`, [cast.team.id]);
      await remove(db, cast.teamAdmin.id, cast, cast.member.id);
      expect(
        await one(db, `select current_team_id, team_mode from public.profiles where id = $1`, [
          cast.member.id,
        ]),
      ).toEqual({ current_team_id: null, team_mode: false });
    }));
});

describe('leave_team by actor', () => {
  const leave = (db: pg.ClientBase, actor: string, cast: Cast) =>
    queryAs(db, actor, `select public.leave_team($1)`, [cast.team.id]);

  it('team admin, member and viewer leave; team mode ends with it', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await queryAs(db, cast.viewer.id, `select public.switch_team($1)`, [cast.team.id]);
      for (const actor of [cast.teamAdmin, cast.member, cast.viewer]) {
        await leave(db, actor.id, cast);
        expect(await roleOf(db, cast, actor.id)).toBeNull();
      }
      expect(
        await one(db, `select team_mode from public.profiles where id = $1`, [cast.viewer.id]),
      ).toEqual({ team_mode: false });
    }));

  it('the owner and org users who are not on the team cannot leave it; strangers and staff do not see it', () =>
    withRollback(pool, async (db) => {
      const cast = await castWithOrgRoles(db);
      for (const actor of [cast.owner, cast.orgUser, cast.orgTeams, cast.orgMembers]) {
        await expectCoded(leave(db, actor.id, cast), 'not_team_member');
      }
      await addTeamMember(db, { teamId: cast.team.id, userId: cast.owner.id, role: 'admin' });
      await expectCoded(leave(db, cast.owner.id, cast), 'team_owner_fixed');
      for (const actor of [cast.stranger, cast.staff]) {
        await expectCoded(leave(db, actor.id, cast), 'unknown_team');
      }
    }));
});

describe('invitations: seats', () => {
  const invite = (db: pg.ClientBase, actor: string, cast: Cast, email: string) =>
    queryAs(
      db,
      actor,
      `insert into public.invitations (team_id, email, team_role, inviter_id)
       values ($1, $2, 'member', $3)`,
      [cast.team.id, email, actor],
    );
  const limitSeats = (db: pg.ClientBase, cast: Cast, seats: number) =>
    db.query(
      `insert into public.account_usage (account_id, name, "limit") values ($1, 'max_members', $2)`,
      [cast.team.accountId, seats],
    );

  it('a pending invitation takes a seat: past max_members the plan-limit message', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      // Three members and one pending invitation take four seats.
      await limitSeats(db, cast, 5);
      await createInvitation(db, {
        inviterId: cast.teamAdmin.id,
        email: 'first@shortlane.test',
        teamId: cast.team.id,
        teamRole: 'viewer',
      });
      expect((await invite(db, cast.teamAdmin.id, cast, 'second@shortlane.test')).rowCount).toBe(1);
      await expectCoded(
        invite(db, cast.owner.id, cast, 'third@shortlane.test'),
        'team_limit_reached',
      );
      // Someone already invited hears that, not the limit.
      await expectCoded(
        invite(db, cast.teamAdmin.id, cast, 'first@shortlane.test'),
        'already_member',
      );
    }));

  it('org users with `members` invite; member, viewer and org users without it are refused', () =>
    withRollback(pool, async (db) => {
      const cast = await castWithOrgRoles(db);
      expect((await invite(db, cast.orgMembers.id, cast, 'm@shortlane.test')).rowCount).toBe(1);
      for (const actor of [cast.member, cast.viewer, cast.orgUser, cast.stranger, cast.staff]) {
        await expectRefused(invite(db, actor.id, cast, `${randomUUID()}@shortlane.test`));
      }
    }));
});

describe('preview features and account features', () => {
  it('only staff turn on a preview feature; unknown names are refused', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await expectProtectedColumn(
        queryAs(
          db,
          cast.stranger.id,
          `update public.profiles set preview_features = '{organizations}' where id = $1`,
          [cast.stranger.id],
        ),
        'preview_features',
      );
      const set = await queryAs(
        db,
        cast.staff.id,
        `update public.profiles set preview_features = '{organizations}' where id = $1`,
        [cast.stranger.id],
      );
      expect(set.rowCount).toBe(1);
      const unknown = await db
        .query(`update public.profiles set preview_features = '{everything}' where id = $1`, [
          cast.stranger.id,
        ])
        .catch((error: pg.DatabaseError) => error);
      expect((unknown as pg.DatabaseError).code).toBe('23514');
    }));

  it("team members read their team's features (with the organization's); strangers may not", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await db.query(`update public.accounts set features = '{use_tags}' where id = $1`, [
        cast.organization.accountId,
      ]);
      const { rows } = await queryAs<{ features: string[] }>(
        db,
        cast.viewer.id,
        `select public.account_features($1) as features`,
        [cast.team.accountId],
      );
      expect(rows[0]?.features).toContain('use_tags');
      await expectCoded(
        queryAs(db, cast.stranger.id, `select public.account_features($1)`, [cast.team.accountId]),
        'permission_denied',
      );
    }));

  it('my_team_permissions says what each actor may do in the team', () =>
    withRollback(pool, async (db) => {
      const cast = await castWithOrgRoles(db);
      const permissions = async (actor: string) =>
        (
          await queryAs<{ p: string[] }>(db, actor, `select public.my_team_permissions($1) as p`, [
            cast.team.id,
          ])
        ).rows[0]?.p;
      expect(await permissions(cast.teamAdmin.id)).toEqual(
        expect.arrayContaining(['members', 'settings']),
      );
      expect(await permissions(cast.orgMembers.id)).toEqual(['members']);
      expect(await permissions(cast.viewer.id)).toEqual(['links.read']);
      expect(await permissions(cast.stranger.id)).toEqual([]);
    }));
});
