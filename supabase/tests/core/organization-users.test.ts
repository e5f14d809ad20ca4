import { describe, expect, it } from 'vitest';
import {
  addOrganizationUser,
  all,
  createCast,
  createInvitation,
  createOrganization,
  createOrganizationRole,
  createUser,
  expectCoded,
  expectProtectedColumn,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';
import type pg from 'pg';

/**
 * organization/{org}/settings/users (change role, remove), invitation links, the helpdesk and
 * the kiosk's preview switch (20261122004300), by actor.
 */
const pool = useDatabase();

const changeRole = (db: pg.ClientBase, actor: string | null, cast: Cast, userId: string) =>
  queryAs(
    db,
    actor,
    'select user_id, role_id from public.change_organization_user_role($1, $2, $3)',
    [cast.organization.id, userId, cast.supervisorRole.id],
  );

const remove = (db: pg.ClientBase, actor: string | null, cast: Cast, userId: string) =>
  queryAs(db, actor, 'select public.remove_organization_user($1, $2)', [
    cast.organization.id,
    userId,
  ]);

describe('changing an organization user role, by actor', () => {
  it('the owner and holders of `users` change another user role; the audit trail has it', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['users'] });
      const target = await createUser(db, { name: 'Target' });
      await addOrganizationUser(db, {
        organizationId: cast.organization.id,
        userId: target.id,
        roleId: cast.limitedRole.id,
      });
      const byOwner = await changeRole(db, cast.owner.id, cast, target.id);
      expect(byOwner.rows).toEqual([{ user_id: target.id, role_id: cast.supervisorRole.id }]);
      const back = await queryAs(
        db,
        cast.orgUser.id,
        'select role_id from public.change_organization_user_role($1, $2, $3)',
        [cast.organization.id, target.id, cast.limitedRole.id],
      );
      expect(back.rows).toEqual([{ role_id: cast.limitedRole.id }]);
      const audited = await all<{ actor_id: string; action: string; target: string }>(
        db,
        `select actor_id, action, target from public.audit_events
         where organization_id = $1 and subject_table = 'organization_users'
           and action = 'organization_user.updated' order by created_at, id`,
        [cast.organization.id],
      );
      expect(audited).toEqual([
        { actor_id: cast.owner.id, action: 'organization_user.updated', target: target.email },
        { actor_id: cast.orgUser.id, action: 'organization_user.updated', target: target.email },
      ]);
    }));

  it('members without `users`, team people and staff are refused; strangers cannot tell', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, {
        limitedPermissions: ['teams', 'members', 'roles', 'domains', 'profile', 'audit'],
      });
      const target = cast.supervisor.id;
      for (const actor of [
        cast.orgUser,
        cast.supervisor,
        cast.teamAdmin,
        cast.member,
        cast.viewer,
      ]) {
        if (actor === cast.supervisor) continue;
        await expectCoded(changeRole(db, actor.id, cast, target), 'permission_denied');
        await expectCoded(remove(db, actor.id, cast, target), 'permission_denied');
      }
      for (const actor of [cast.stranger, cast.staff]) {
        await expectCoded(changeRole(db, actor.id, cast, target), 'organization_not_found');
        await expectCoded(remove(db, actor.id, cast, target), 'organization_not_found');
      }
      await expectRefused(changeRole(db, null, cast, target));
      await expectRefused(remove(db, null, cast, target));
      const still = await one<{ role_id: string }>(
        db,
        'select role_id from public.organization_users where organization_id = $1 and user_id = $2',
        [cast.organization.id, target],
      );
      expect(still.role_id).toBe(cast.supervisorRole.id);
    }));

  it('refuses one own role, the owner, a stranger and a role of another organization', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['users'] });
      await expectCoded(
        changeRole(db, cast.orgUser.id, cast, cast.orgUser.id),
        'own_organization_membership',
      );
      await expectCoded(
        remove(db, cast.orgUser.id, cast, cast.orgUser.id),
        'own_organization_membership',
      );
      await expectCoded(
        changeRole(db, cast.orgUser.id, cast, cast.owner.id),
        'user_not_in_organization',
      );
      await expectCoded(
        remove(db, cast.owner.id, cast, cast.stranger.id),
        'user_not_in_organization',
      );
      const other = await createOrganization(db, { ownerId: cast.stranger.id });
      const foreignRole = await createOrganizationRole(db, {
        organizationId: other.id,
        permissions: ['users'],
        name: 'Foreign',
      });
      await expectCoded(
        queryAs(db, cast.owner.id, 'select public.change_organization_user_role($1, $2, $3)', [
          cast.organization.id,
          cast.supervisor.id,
          foreignRole.id,
        ]),
        'role_invalid',
      );
    }));
});

describe('removing an organization user', () => {
  it('takes them off the organization and its teams, audited', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['users'] });
      await addOrganizationUser(db, {
        organizationId: cast.organization.id,
        userId: cast.member.id,
        roleId: cast.limitedRole.id,
      });
      await remove(db, cast.orgUser.id, cast, cast.member.id);
      const left = await all(
        db,
        `select 1 from public.organization_users where user_id = $1
         union all select 1 from public.team_members where user_id = $1`,
        [cast.member.id],
      );
      expect(left).toEqual([]);
      const actions = await all<{ action: string }>(
        db,
        `select action from public.audit_events where organization_id = $1 and actor_id = $2
         order by action`,
        [cast.organization.id, cast.orgUser.id],
      );
      expect(actions).toEqual([
        { action: 'organization_user.deleted' },
        { action: 'team_member.deleted' },
      ]);
    }));
});

describe('invitation links', () => {
  const issue = (db: pg.ClientBase, actor: string, invitationId: string) =>
    queryAs<{ token: string; email: string; organization_name: string; role_name: string }>(
      db,
      actor,
      'select token, email, organization_name, role_name from public.issue_invitation_token($1)',
      [invitationId],
    );

  async function invited(db: pg.ClientBase) {
    const cast = await createCast(db, { limitedPermissions: ['invitations'] });
    const invitee = await createUser(db, { name: 'Invitee' });
    const invitation = await createInvitation(db, {
      inviterId: cast.owner.id,
      email: invitee.email.toUpperCase(),
      organizationId: cast.organization.id,
      organizationRoleId: cast.limitedRole.id,
    });
    return { cast, invitee, invitation };
  }

  it('the inviter and holders of `invitations` issue a 256-bit token stored only as a hash', () =>
    withRollback(pool, async (db) => {
      const { cast, invitee, invitation } = await invited(db);
      const first = (await issue(db, cast.owner.id, invitation.id)).rows[0]!;
      expect(first).toMatchObject({
        email: invitee.email,
        organization_name: expect.any(String),
        role_name: 'Limited',
      });
      expect(first.token).toMatch(/^[0-9a-f]{64}$/);
      const second = (await issue(db, cast.orgUser.id, invitation.id)).rows[0]!;
      expect(second.token).not.toBe(first.token);
      const stored = await all<{ hash: string }>(
        db,
        `select encode(token_hash, 'hex') as hash from app.invitation_tokens where invitation_id = $1`,
        [invitation.id],
      );
      expect(stored).toHaveLength(1);
      expect(stored[0]!.hash).not.toContain(second.token);
      // The re-issued link replaced the first.
      await expectCoded(
        queryAs(db, null, 'select public.invitation_by_token($1)', [first.token]),
        'invitation_not_found',
      );
      for (const actor of [
        cast.supervisor,
        cast.teamAdmin,
        cast.member,
        cast.viewer,
        cast.stranger,
        cast.staff,
        invitee,
      ]) {
        await expectCoded(issue(db, actor.id, invitation.id), 'invitation_not_found');
      }
      for (const actor of [cast.owner, cast.member, cast.staff]) {
        await expectRefused(queryAs(db, actor.id, 'select * from app.invitation_tokens'));
      }
    }));

  it('anyone holding the link reads the invitation; only the invited address answers it, once', () =>
    withRollback(pool, async (db) => {
      const { cast, invitee, invitation } = await invited(db);
      const { token } = (await issue(db, cast.owner.id, invitation.id)).rows[0]!;
      const shown = await queryAs<{ invitation: Record<string, unknown> }>(
        db,
        null,
        'select public.invitation_by_token($1) as invitation',
        [token],
      );
      expect(shown.rows[0]!.invitation).toMatchObject({
        id: invitation.id,
        email: invitee.email,
        source: 'organization',
        state: 'pending',
        role: 'Limited',
        account_exists: true,
        organization: { name: expect.any(String), slug: cast.organization.slug },
      });
      await expectRefused(queryAs(db, null, 'select public.accept_invitation_token($1)', [token]));
      await expectCoded(
        queryAs(db, cast.stranger.id, 'select public.accept_invitation_token($1)', [token]),
        'invitation_other_email',
      );
      await expectCoded(
        queryAs(db, invitee.id, 'select public.accept_invitation_token($1)', ['0'.repeat(64)]),
        'invitation_not_found',
      );
      const accepted = await queryAs<{ status: string }>(
        db,
        invitee.id,
        'select status from public.accept_invitation_token($1)',
        [token],
      );
      expect(accepted.rows).toEqual([{ status: 'accepted' }]);
      const joined = await one<{ role_id: string }>(
        db,
        'select role_id from public.organization_users where organization_id = $1 and user_id = $2',
        [cast.organization.id, invitee.id],
      );
      expect(joined.role_id).toBe(cast.limitedRole.id);
      await expectCoded(
        queryAs(db, invitee.id, 'select public.reject_invitation_token($1)', [token]),
        'invitation_used',
      );
      const after = await queryAs<{ state: string }>(
        db,
        null,
        `select public.invitation_by_token($1) ->> 'state' as state`,
        [token],
      );
      expect(after.rows).toEqual([{ state: 'used' }]);
    }));

  it('an expired link answers nothing; a rejected one leaves no membership', () =>
    withRollback(pool, async (db) => {
      const { cast, invitee, invitation } = await invited(db);
      const { token } = (await issue(db, cast.owner.id, invitation.id)).rows[0]!;
      await db.query(
        `update app.invitation_tokens set expires_at = now() - interval '1 second' where invitation_id = $1`,
        [invitation.id],
      );
      await expectCoded(
        queryAs(db, invitee.id, 'select public.accept_invitation_token($1)', [token]),
        'invitation_expired',
      );
      const fresh = (await issue(db, cast.owner.id, invitation.id)).rows[0]!.token;
      const rejected = await queryAs<{ status: string }>(
        db,
        invitee.id,
        'select status from public.reject_invitation_token($1)',
        [fresh],
      );
      expect(rejected.rows).toEqual([{ status: 'rejected' }]);
      const member = await all(
        db,
        'select 1 from public.organization_users where organization_id = $1 and user_id = $2',
        [cast.organization.id, invitee.id],
      );
      expect(member).toEqual([]);
    }));

  it('team invitations get links from team admins, not from members or viewers', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const invitation = await createInvitation(db, {
        inviterId: cast.teamAdmin.id,
        email: 'join@example.com',
        teamId: cast.team.id,
        teamRole: 'member',
      });
      const issued = await queryAs<{ role_name: string; team_name: string }>(
        db,
        cast.teamAdmin.id,
        'select role_name, team_name from public.issue_invitation_token($1)',
        [invitation.id],
      );
      const team = await one<{ name: string }>(db, 'select name from public.teams where id = $1', [
        cast.team.id,
      ]);
      expect(issued.rows).toEqual([{ role_name: 'member', team_name: team.name }]);
      for (const actor of [cast.member, cast.viewer, cast.orgUser]) {
        await expectCoded(
          queryAs(db, actor.id, 'select public.issue_invitation_token($1)', [invitation.id]),
          'invitation_not_found',
        );
      }
    }));
});

describe('the helpdesk', () => {
  const ask = (db: pg.ClientBase, actor: string | null, organizationId: string) =>
    queryAs<{ id: string; state: string }>(
      db,
      actor,
      `insert into public.support_requests (organization_id, subject, message)
       values ($1, 'Help', 'Our links stopped') returning id, state`,
      [organizationId],
    );

  it('the owner and organization users ask and read; team people, strangers and guests cannot', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const mine = (await ask(db, cast.orgUser.id, cast.organization.id)).rows[0]!;
      expect(mine.state).toBe('open');
      await ask(db, cast.owner.id, cast.organization.id);
      for (const actor of [cast.teamAdmin, cast.member, cast.viewer, cast.stranger]) {
        await expectRefused(ask(db, actor.id, cast.organization.id));
        const seen = await queryAs(db, actor.id, 'select id from public.support_requests');
        expect(seen.rows).toEqual([]);
      }
      await expectRefused(ask(db, null, cast.organization.id));
      const bySupervisor = await queryAs(
        db,
        cast.supervisor.id,
        'select subject from public.support_requests where organization_id = $1',
        [cast.organization.id],
      );
      expect(bySupervisor.rows).toHaveLength(2);
      // Nobody asks in someone else's name or with an answer of their own.
      await expectRefused(
        queryAs(
          db,
          cast.orgUser.id,
          `insert into public.support_requests (organization_id, author_id, subject, message)
           values ($1, $2, 's', 'm')`,
          [cast.organization.id, cast.owner.id],
        ),
      );
      await expectRefused(
        queryAs(
          db,
          cast.orgUser.id,
          `insert into public.support_requests (organization_id, subject, message, answer)
           values ($1, 's', 'm', 'solved')`,
          [cast.organization.id],
        ),
      );
      const audited = await all<{ action: string; actor_id: string }>(
        db,
        `select action, actor_id from public.audit_events
         where subject_table = 'support_requests' and subject_id = $1`,
        [mine.id],
      );
      expect(audited).toEqual([{ action: 'support_request.created', actor_id: cast.orgUser.id }]);
    }));

  it('staff read every request and answer it; members cannot answer or delete', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const request = (await ask(db, cast.orgUser.id, cast.organization.id)).rows[0]!;
      const owned = await queryAs(
        db,
        cast.owner.id,
        `update public.support_requests set answer = 'me' where id = $1`,
        [request.id],
      );
      expect(owned.rowCount).toBe(0);
      await expectRefused(
        queryAs(db, cast.owner.id, 'delete from public.support_requests where id = $1', [
          request.id,
        ]),
      );
      const answered = await queryAs<{ state: string; answered_by: string; answered: boolean }>(
        db,
        cast.staff.id,
        `update public.support_requests set answer = 'Fixed on our side.' where id = $1
         returning state, answered_by, answered_at is not null as answered`,
        [request.id],
      );
      expect(answered.rows).toEqual([
        { state: 'answered', answered_by: cast.staff.id, answered: true },
      ]);
      await expectProtectedColumn(
        queryAs(
          db,
          cast.staff.id,
          `update public.support_requests set subject = 'x' where id = $1`,
          [request.id],
        ),
        'subject',
      );
      const closed = await queryAs<{ state: string }>(
        db,
        cast.staff.id,
        `update public.support_requests set state = 'closed' where id = $1 returning state`,
        [request.id],
      );
      expect(closed.rows).toEqual([{ state: 'closed' }]);
    }));
});

describe('the organizations preview switch', () => {
  it('staff switch it, logged in the kiosk audit log; the user cannot', () =>
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
      await queryAs(
        db,
        cast.staff.id,
        `update public.profiles set preview_features = '{organizations}' where id = $1`,
        [cast.stranger.id],
      );
      const logged = await all<{ actor_id: string; details: unknown }>(
        db,
        `select actor_id, details from public.kiosk_audit_log
         where action = 'user.preview_features_changed' and subject_user_id = $1`,
        [cast.stranger.id],
      );
      expect(logged).toEqual([
        { actor_id: cast.staff.id, details: { before: [], after: ['organizations'] } },
      ]);
    }));
});
