import { describe, expect, it } from 'vitest';
import {
  createCast,
  createInvitation,
  createTeam,
  createUser,
  expectRefused,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** The organization audit trail: written by triggers, read by owners and auditors. */
const pool = useDatabase();

describe('audit trail', () => {
  it('records organization-level changes with the actor', () =>
    withRollback(pool, async (db) => {
      const { organization, owner, team, teamAdmin, member, viewer } = await createCast(db);
      await queryAs(
        db,
        owner.id,
        `update public.organizations set name = 'Renamed' where id = $1`,
        [organization.id],
      );
      await queryAs(db, owner.id, `select public.archive_organization($1, true)`, [
        organization.id,
      ]);
      await queryAs(
        db,
        teamAdmin.id,
        `update public.team_members set role = 'viewer' where team_id = $1 and user_id = $2`,
        [team.id, member.id],
      );
      // Setting a value it already has changes nothing and leaves no trace.
      await queryAs(
        db,
        teamAdmin.id,
        `update public.team_members set role = 'viewer' where team_id = $1 and user_id = $2`,
        [team.id, viewer.id],
      );
      await createInvitation(db, {
        inviterId: owner.id,
        email: 'auditme@example.com',
        teamId: team.id,
        teamRole: 'member',
      });
      const trail = await queryAs<{ action: string; actor_id: string | null }>(
        db,
        owner.id,
        `select action, actor_id from public.audit_events
         where organization_id = $1 and actor_id is not null order by id`,
        [organization.id],
      );
      expect(trail.rows).toEqual([
        { action: 'organization.updated', actor_id: owner.id },
        { action: 'organization.archived', actor_id: owner.id },
        { action: 'team_member.updated', actor_id: teamAdmin.id },
      ]);
      const created = await queryAs<{ action: string }>(
        db,
        owner.id,
        `select distinct action from public.audit_events where organization_id = $1 and actor_id is null
         order by action`,
        [organization.id],
      );
      // The factories (no signed-in actor) created the organization, roles, users, team, members
      // and the invitation.
      expect(created.rows.map((r) => r.action)).toEqual([
        'invitation.created',
        'organization.created',
        'organization_role.created',
        'organization_user.created',
        'team.created',
        'team_member.created',
      ]);
    }));

  it('keeps no trail for standalone teams', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const team = await createTeam(db, { ownerId: user.id });
      const { rows } = await db.query(
        `select count(*)::int as n from public.audit_events where subject_id = $1`,
        [team.id],
      );
      expect(rows).toEqual([{ n: 0 }]);
    }));

  it('owner and org users with audit read it; a limited org user, team admin and stranger do not', () =>
    withRollback(pool, async (db) => {
      const auditors = await createCast(db, { limitedPermissions: ['audit'] });
      const count = `select count(*)::int as n from public.audit_events where organization_id = $1`;
      for (const actor of [auditors.owner, auditors.orgUser, auditors.staff]) {
        const seen = await queryAs<{ n: number }>(db, actor.id, count, [auditors.organization.id]);
        expect(seen.rows[0]?.n).toBeGreaterThan(0);
      }
      for (const actor of [auditors.supervisor, auditors.teamAdmin, auditors.stranger]) {
        const seen = await queryAs(db, actor.id, count, [auditors.organization.id]);
        expect(seen.rows).toEqual([{ n: 0 }]);
      }
      await expectRefused(queryAs(db, null, count, [auditors.organization.id]));
    }));

  it('nobody writes or rewrites it over the API', () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      await expectRefused(
        queryAs(
          db,
          owner.id,
          `insert into public.audit_events (organization_id, action, subject_table) values ($1, 'x', 'x')`,
          [organization.id],
        ),
      );
      await expectRefused(
        queryAs(db, owner.id, `delete from public.audit_events where organization_id = $1`, [
          organization.id,
        ]),
      );
    }));
});
