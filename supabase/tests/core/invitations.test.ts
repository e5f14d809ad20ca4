import { describe, expect, it } from 'vitest';
import {
  addTeamMember,
  createCast,
  createInvitation,
  createOrganizationRole,
  createPlan,
  createUser,
  expectCoded,
  expectRefused,
  one,
  queryAs,
  subscribe,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** Invitations: who may send and read them, and the accept / reject rules. */
const pool = useDatabase();

describe('sending invitations by actor', () => {
  it('team admin invites to the team; the inviter is the caller', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, organization } = await createCast(db);
      const invited = await queryAs(
        db,
        teamAdmin.id,
        `insert into public.invitations (team_id, email, team_role, message)
         values ($1, 'New.Person@Example.com', 'member', 'Welcome')
         returning inviter_id, email, source, organization_id, status`,
        [team.id],
      );
      expect(invited.rows).toEqual([
        {
          inviter_id: teamAdmin.id,
          email: 'new.person@example.com',
          source: 'team',
          organization_id: organization.id,
          status: 'pending',
        },
      ]);
    }));

  it('member and viewer cannot invite', () =>
    withRollback(pool, async (db) => {
      const { team, member, viewer } = await createCast(db);
      for (const actor of [member, viewer]) {
        await expectRefused(
          queryAs(
            db,
            actor.id,
            `insert into public.invitations (team_id, email, team_role) values ($1, 'x@example.com', 'member')`,
            [team.id],
          ),
        );
      }
    }));

  it('org user with the invitations permission invites to the organization; without it, refused', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['invitations'] });
      const { organization, orgUser, supervisor, limitedRole } = cast;
      const invited = await queryAs(
        db,
        orgUser.id,
        `insert into public.invitations (organization_id, email, organization_role_id)
         values ($1, 'hire@example.com', $2) returning source`,
        [organization.id, limitedRole.id],
      );
      expect(invited.rows).toEqual([{ source: 'organization' }]);
      await expectRefused(
        queryAs(
          db,
          supervisor.id,
          `insert into public.invitations (organization_id, email, organization_role_id)
           values ($1, 'other@example.com', $2)`,
          [organization.id, limitedRole.id],
        ),
      );
    }));

  it('refuses a role from another organization with role_invalid', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const other = await createCast(db);
      await expectCoded(
        queryAs(
          db,
          cast.owner.id,
          `insert into public.invitations (organization_id, email, organization_role_id)
           values ($1, 'hire@example.com', $2)`,
          [cast.organization.id, other.limitedRole.id],
        ),
        'role_invalid',
      );
    }));

  it('refuses to invite a member or to invite the same address twice (already_member)', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, member } = await createCast(db);
      await expectCoded(
        queryAs(
          db,
          teamAdmin.id,
          `insert into public.invitations (team_id, email, team_role) values ($1, $2, 'viewer')`,
          [team.id, member.email.toUpperCase()],
        ),
        'already_member',
      );
      await queryAs(
        db,
        teamAdmin.id,
        `insert into public.invitations (team_id, email, team_role) values ($1, 'twice@example.com', 'viewer')`,
        [team.id],
      );
      await expectCoded(
        queryAs(
          db,
          teamAdmin.id,
          `insert into public.invitations (team_id, email, team_role) values ($1, 'twice@example.com', 'member')`,
          [team.id],
        ),
        'already_member',
      );
    }));

  it('the invitee, the inviter and invitation managers read it; others do not', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, owner, member, stranger } = await createCast(db);
      const invitee = await createUser(db);
      const invitation = await createInvitation(db, {
        inviterId: teamAdmin.id,
        email: invitee.email,
        teamId: team.id,
        teamRole: 'member',
      });
      for (const actor of [invitee, teamAdmin, owner]) {
        const seen = await queryAs(
          db,
          actor.id,
          `select id from public.invitations where id = $1`,
          [invitation.id],
        );
        expect(seen.rows).toEqual([{ id: invitation.id }]);
      }
      for (const actor of [member, stranger]) {
        const seen = await queryAs(
          db,
          actor.id,
          `select id from public.invitations where id = $1`,
          [invitation.id],
        );
        expect(seen.rows).toEqual([]);
      }
      // The invitee sees who invited them (the popover shows inviter.name).
      const inviter = await queryAs(
        db,
        invitee.id,
        `select name from public.profiles where id = $1`,
        [teamAdmin.id],
      );
      expect(inviter.rows).toEqual([{ name: 'Team admin' }]);
    }));

  it('the invitee reads the team, organization and role they are invited to, until they answer', () =>
    withRollback(pool, async (db) => {
      const { team, organization, owner, limitedRole } = await createCast(db);
      const invitee = await createUser(db);
      await createInvitation(db, {
        inviterId: owner.id,
        email: invitee.email,
        teamId: team.id,
        teamRole: 'member',
      });
      const orgInvitation = await createInvitation(db, {
        inviterId: owner.id,
        email: invitee.email,
        organizationId: organization.id,
        organizationRoleId: limitedRole.id,
      });
      const targets = `select
          (select count(*)::int from public.teams where id = $1) as teams,
          (select count(*)::int from public.organizations where id = $2) as organizations,
          (select count(*)::int from public.organization_roles where id = $3) as roles`;
      const before = await queryAs(db, invitee.id, targets, [
        team.id,
        organization.id,
        limitedRole.id,
      ]);
      expect(before.rows).toEqual([{ teams: 1, organizations: 1, roles: 1 }]);
      await db.query(`update public.invitations set status = 'rejected' where email = $1`, [
        invitee.email,
      ]);
      const after = await queryAs(db, invitee.id, targets, [
        team.id,
        organization.id,
        limitedRole.id,
      ]);
      expect(after.rows).toEqual([{ teams: 0, organizations: 0, roles: 0 }]);
      expect(orgInvitation.id).toMatch(/^[0-9a-f-]{36}$/);
    }));

  it('nobody changes an invitation by a direct update; the inviter may withdraw it', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin } = await createCast(db);
      const invitee = await createUser(db);
      const invitation = await createInvitation(db, {
        inviterId: teamAdmin.id,
        email: invitee.email,
        teamId: team.id,
        teamRole: 'member',
      });
      await expectRefused(
        queryAs(db, invitee.id, `update public.invitations set status = 'accepted' where id = $1`, [
          invitation.id,
        ]),
      );
      const withdrawn = await queryAs(
        db,
        teamAdmin.id,
        `delete from public.invitations where id = $1`,
        [invitation.id],
      );
      expect(withdrawn.rowCount).toBe(1);
    }));

  it('anonymous: refused', () =>
    withRollback(pool, async (db) => {
      await expectRefused(queryAs(db, null, `select id from public.invitations`));
    }));
});

describe('accept_invitation and reject_invitation', () => {
  it('accepting a team invitation adds the invitee with the invited role', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin } = await createCast(db);
      const invitee = await createUser(db);
      const invitation = await createInvitation(db, {
        inviterId: teamAdmin.id,
        email: invitee.email,
        teamId: team.id,
        teamRole: 'viewer',
      });
      const accepted = await queryAs(
        db,
        invitee.id,
        `select status from public.accept_invitation($1)`,
        [invitation.id],
      );
      expect(accepted.rows).toEqual([{ status: 'accepted' }]);
      expect(
        await one(db, `select role from public.team_members where team_id = $1 and user_id = $2`, [
          team.id,
          invitee.id,
        ]),
      ).toEqual({ role: 'viewer' });
    }));

  it('accepting an organization invitation makes the invitee an org user with the role', () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      const role = await createOrganizationRole(db, {
        organizationId: organization.id,
        permissions: ['audit'],
      });
      const invitee = await createUser(db);
      const invitation = await createInvitation(db, {
        inviterId: owner.id,
        email: invitee.email,
        organizationId: organization.id,
        organizationRoleId: role.id,
      });
      await queryAs(db, invitee.id, `select public.accept_invitation($1)`, [invitation.id]);
      expect(
        await one(
          db,
          `select role_id from public.organization_users where organization_id = $1 and user_id = $2`,
          [organization.id, invitee.id],
        ),
      ).toEqual({ role_id: role.id });
    }));

  it("is invitation_not_found for someone else's, an answered or an unknown invitation", () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, stranger } = await createCast(db);
      const invitee = await createUser(db);
      const invitation = await createInvitation(db, {
        inviterId: teamAdmin.id,
        email: invitee.email,
        teamId: team.id,
        teamRole: 'member',
      });
      await expectCoded(
        queryAs(db, stranger.id, `select public.accept_invitation($1)`, [invitation.id]),
        'invitation_not_found',
      );
      await expectCoded(
        queryAs(db, invitee.id, `select public.accept_invitation(gen_random_uuid())`),
        'invitation_not_found',
      );
      await queryAs(db, invitee.id, `select public.reject_invitation($1)`, [invitation.id]);
      await expectCoded(
        queryAs(db, invitee.id, `select public.accept_invitation($1)`, [invitation.id]),
        'invitation_not_found',
      );
    }));

  it('is already_member when the invitee joined meanwhile', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin } = await createCast(db);
      const invitee = await createUser(db);
      const invitation = await createInvitation(db, {
        inviterId: teamAdmin.id,
        email: invitee.email,
        teamId: team.id,
        teamRole: 'member',
      });
      await addTeamMember(db, { teamId: team.id, userId: invitee.id, role: 'viewer' });
      await expectCoded(
        queryAs(db, invitee.id, `select public.accept_invitation($1)`, [invitation.id]),
        'already_member',
      );
    }));

  it("is team_limit_reached when the team's plan has no room for another member", () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin } = await createCast(db);
      const invitee = await createUser(db);
      const invitation = await createInvitation(db, {
        inviterId: teamAdmin.id,
        email: invitee.email,
        teamId: team.id,
        teamRole: 'member',
      });
      // The plan shrank after the invitation went out (a pending invitation takes a seat, so
      // a full team could not have sent it: 20261122003700_team_administration.sql).
      const plan = await createPlan(db, { options: { max_members: 3 } });
      await subscribe(db, { accountId: team.accountId, plan });
      await expectCoded(
        queryAs(db, invitee.id, `select public.accept_invitation($1)`, [invitation.id]),
        'team_limit_reached',
      );
    }));

  it('rejecting marks the invitation rejected and adds nobody', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin } = await createCast(db);
      const invitee = await createUser(db);
      const invitation = await createInvitation(db, {
        inviterId: teamAdmin.id,
        email: invitee.email,
        teamId: team.id,
        teamRole: 'member',
      });
      const rejected = await queryAs(
        db,
        invitee.id,
        `select status from public.reject_invitation($1)`,
        [invitation.id],
      );
      expect(rejected.rows).toEqual([{ status: 'rejected' }]);
      expect(
        await one(db, `select count(*)::int as n from public.team_members where user_id = $1`, [
          invitee.id,
        ]),
      ).toEqual({ n: 0 });
    }));

  it('rejecting an invitation that is not yours is invitation_not_found', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, member } = await createCast(db);
      const invitation = await createInvitation(db, {
        inviterId: teamAdmin.id,
        email: 'someone.else@example.com',
        teamId: team.id,
        teamRole: 'member',
      });
      await expectCoded(
        queryAs(db, member.id, `select public.reject_invitation($1)`, [invitation.id]),
        'invitation_not_found',
      );
    }));
});
