import { describe, expect, it } from 'vitest';
import {
  createCast,
  createUser,
  expectProtectedColumn,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** Teams and team members, by actor. */
const pool = useDatabase();

describe('teams by actor', () => {
  it('team admin: renames the team (its account follows); cannot move it to another organization', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin } = await createCast(db);
      const renamed = await queryAs(
        db,
        teamAdmin.id,
        `update public.teams set name = 'Growth' where id = $1`,
        [team.id],
      );
      expect(renamed.rowCount).toBe(1);
      expect(
        await one(db, `select name from public.accounts where id = $1`, [team.accountId]),
      ).toEqual({
        name: 'Growth',
      });
      await expectProtectedColumn(
        queryAs(db, teamAdmin.id, `update public.teams set organization_id = null where id = $1`, [
          team.id,
        ]),
        'organization_id',
      );
    }));

  it('team admin: puts an organization person on the team, changes roles, removes members', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, orgUser, member, viewer } = await createCast(db);
      const added = await queryAs(
        db,
        teamAdmin.id,
        `insert into public.team_members (team_id, user_id, role) values ($1, $2, 'viewer')`,
        [team.id, orgUser.id],
      );
      expect(added.rowCount).toBe(1);
      const promoted = await queryAs(
        db,
        teamAdmin.id,
        `update public.team_members set role = 'admin' where team_id = $1 and user_id = $2`,
        [team.id, member.id],
      );
      expect(promoted.rowCount).toBe(1);
      const removed = await queryAs(
        db,
        teamAdmin.id,
        `delete from public.team_members where team_id = $1 and user_id = $2`,
        [team.id, viewer.id],
      );
      expect(removed.rowCount).toBe(1);
    }));

  it('team admin: cannot add someone from outside the organization, nor change their own role', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin } = await createCast(db);
      const outsider = await createUser(db);
      await expectRefused(
        queryAs(
          db,
          teamAdmin.id,
          `insert into public.team_members (team_id, user_id, role) values ($1, $2, 'member')`,
          [team.id, outsider.id],
        ),
      );
      const own = await queryAs(
        db,
        teamAdmin.id,
        `update public.team_members set role = 'viewer' where team_id = $1 and user_id = $2`,
        [team.id, teamAdmin.id],
      );
      expect(own.rowCount).toBe(0);
    }));

  it('team admin: cannot delete the team (the owner or the teams permission can)', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, owner } = await createCast(db);
      const byAdmin = await queryAs(db, teamAdmin.id, `delete from public.teams where id = $1`, [
        team.id,
      ]);
      expect(byAdmin.rowCount).toBe(0);
      const byOwner = await queryAs(db, owner.id, `delete from public.teams where id = $1`, [
        team.id,
      ]);
      expect(byOwner.rowCount).toBe(1);
      expect(
        await one(db, `select count(*)::int as n from public.accounts where id = $1`, [
          team.accountId,
        ]),
      ).toEqual({ n: 0 });
    }));

  it('member: reads the team and its members, cannot rename it or manage members, may leave', () =>
    withRollback(pool, async (db) => {
      const { team, member, viewer, teamAdmin } = await createCast(db);
      const teams = await queryAs(db, member.id, `select id from public.teams`);
      expect(teams.rows).toEqual([{ id: team.id }]);
      const members = await queryAs<{ user_id: string }>(
        db,
        member.id,
        `select user_id from public.team_members where team_id = $1`,
        [team.id],
      );
      expect(members.rows.map((r) => r.user_id).sort()).toEqual(
        [teamAdmin.id, member.id, viewer.id].sort(),
      );
      const renamed = await queryAs(
        db,
        member.id,
        `update public.teams set name = 'Mine' where id = $1`,
        [team.id],
      );
      expect(renamed.rowCount).toBe(0);
      const kicked = await queryAs(
        db,
        member.id,
        `delete from public.team_members where team_id = $1 and user_id = $2`,
        [team.id, viewer.id],
      );
      expect(kicked.rowCount).toBe(0);
      const left = await queryAs(
        db,
        member.id,
        `delete from public.team_members where team_id = $1 and user_id = $2`,
        [team.id, member.id],
      );
      expect(left.rowCount).toBe(1);
    }));

  it("member: sees co-members' profiles (name and e-mail), not a stranger's", () =>
    withRollback(pool, async (db) => {
      const { member, viewer, stranger } = await createCast(db);
      const profiles = await queryAs<{ id: string; email: string }>(
        db,
        member.id,
        `select id, email from public.profiles where id = any ($1)`,
        [[viewer.id, stranger.id]],
      );
      expect(profiles.rows).toEqual([{ id: viewer.id, email: viewer.email }]);
    }));

  it('viewer: reads the team, cannot add members', () =>
    withRollback(pool, async (db) => {
      const { team, viewer, orgUser } = await createCast(db);
      const teams = await queryAs(db, viewer.id, `select id from public.teams`);
      expect(teams.rows).toEqual([{ id: team.id }]);
      await expectRefused(
        queryAs(
          db,
          viewer.id,
          `insert into public.team_members (team_id, user_id, role) values ($1, $2, 'member')`,
          [team.id, orgUser.id],
        ),
      );
    }));

  it("org user: sees the organization's teams; members only where a role grants something", () =>
    withRollback(pool, async (db) => {
      const { team, orgUser } = await createCast(db, { limitedPermissions: ['audit'] });
      const teams = await queryAs(db, orgUser.id, `select id from public.teams`);
      expect(teams.rows).toEqual([{ id: team.id }]);
      const members = await queryAs(db, orgUser.id, `select user_id from public.team_members`);
      expect(members.rows).toEqual([]);
    }));

  it('stranger: sees no team and no member', () =>
    withRollback(pool, async (db) => {
      const { stranger } = await createCast(db);
      expect((await queryAs(db, stranger.id, `select id from public.teams`)).rows).toEqual([]);
      expect(
        (await queryAs(db, stranger.id, `select user_id from public.team_members`)).rows,
      ).toEqual([]);
    }));

  it('staff: reads teams and members, changes nothing', () =>
    withRollback(pool, async (db) => {
      const { team, staff } = await createCast(db);
      const members = await queryAs(
        db,
        staff.id,
        `select count(*)::int as n from public.team_members where team_id = $1`,
        [team.id],
      );
      expect(members.rows).toEqual([{ n: 3 }]);
      const renamed = await queryAs(
        db,
        staff.id,
        `update public.teams set name = 'Kiosk' where id = $1`,
        [team.id],
      );
      expect(renamed.rowCount).toBe(0);
    }));

  it('anonymous: refused outright', () =>
    withRollback(pool, async (db) => {
      await createCast(db);
      await expectRefused(queryAs(db, null, `select id from public.teams`));
      await expectRefused(queryAs(db, null, `select user_id from public.team_members`));
    }));

  it('accounts: members read the accounts they belong to; only staff change them, never the kind', () =>
    withRollback(pool, async (db) => {
      const { team, member, organization, stranger, staff } = await createCast(db);
      const seen = await queryAs<{ id: string }>(db, member.id, `select id from public.accounts`);
      expect(seen.rows.map((r) => r.id).sort()).toEqual(
        [member.personalAccountId, team.accountId].sort(),
      );
      expect(seen.rows.map((r) => r.id)).not.toContain(organization.accountId);
      const strangerSees = await queryAs(
        db,
        stranger.id,
        `select id from public.accounts where id = $1`,
        [team.accountId],
      );
      expect(strangerSees.rows).toEqual([]);
      const byMember = await queryAs(
        db,
        member.id,
        `update public.accounts set features = '{use_bulk}' where id = $1`,
        [member.personalAccountId],
      );
      expect(byMember.rowCount).toBe(0);
      const byStaff = await queryAs(
        db,
        staff.id,
        `update public.accounts set features = '{use_bulk}' where id = $1`,
        [member.personalAccountId],
      );
      expect(byStaff.rowCount).toBe(1);
      await expectProtectedColumn(
        queryAs(db, staff.id, `update public.accounts set kind = 'team' where id = $1`, [
          member.personalAccountId,
        ]),
        'kind',
      );
    }));
});
