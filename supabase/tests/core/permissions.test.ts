import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createCast,
  createOrganizationRole,
  addOrganizationUser,
  createUser,
  expectDatabaseError,
  expectRefused,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/**
 * app.has_permission / app.accounts_with_permission resolve exactly as the data-model contract
 * says, actor by actor. Each expectation lists the full set, so a grant too many fails as
 * surely as a grant too few.
 */
const pool = useDatabase();

const ALL = [
  'api',
  'audit',
  'billing',
  'domains',
  'invitations',
  'links.create',
  'links.manage',
  'links.read',
  'members',
  'profile',
  'roles',
  'settings',
  'sso',
  'subscriptions',
  'supervisor',
  'teams',
  'users',
];

/** Every permission the actor holds on the account, through app.has_permission. */
async function permissionsOn(db: pg.ClientBase, actorId: string, accountId: string) {
  return asActor(db, actorId, async (as) => {
    const rows = await all<{ permission: string }>(
      as,
      `select p as permission from unnest(app.permission_names()) p
       where app.has_permission($1, p) order by p`,
      [accountId],
    );
    return rows.map((r) => r.permission);
  });
}

describe('permission resolution by actor', () => {
  it('an organization owner holds everything on the organization and on its teams', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      // A team the owner did not create: the grant comes from owning the organization.
      const team = await one<{ account_id: string }>(
        db,
        `select t.account_id from public.teams t where t.id = $1`,
        [cast.team.id],
      );
      await db.query(`update public.accounts set owner_id = $2 where id = $1`, [
        team.account_id,
        cast.teamAdmin.id,
      ]);
      expect(await permissionsOn(db, cast.owner.id, cast.organization.accountId)).toEqual(ALL);
      expect(await permissionsOn(db, cast.owner.id, cast.team.accountId)).toEqual(ALL);
    }));

  it("an organization user holds links.read plus their role's permissions", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['domains', 'audit'] });
      expect(await permissionsOn(db, cast.orgUser.id, cast.organization.accountId)).toEqual([
        'audit',
        'domains',
        'links.read',
      ]);
      // On the organization's teams only `domains` carries over.
      expect(await permissionsOn(db, cast.orgUser.id, cast.team.accountId)).toEqual(['domains']);
    }));

  it('organization roles reach into teams: supervisor, teams and subscriptions', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      // `api` too: the team settings' API Tokens link is the supervisor's (app-shell 6).
      expect(await permissionsOn(db, cast.supervisor.id, cast.team.accountId)).toEqual([
        'api',
        'links.create',
        'links.manage',
        'links.read',
      ]);
      const manager = await createUser(db);
      const role = await createOrganizationRole(db, {
        organizationId: cast.organization.id,
        permissions: ['teams', 'subscriptions'],
      });
      await addOrganizationUser(db, {
        organizationId: cast.organization.id,
        userId: manager.id,
        roleId: role.id,
      });
      expect(await permissionsOn(db, manager.id, cast.team.accountId)).toEqual([
        'billing',
        'members',
        'settings',
      ]);
    }));

  it('team roles: admin, member and viewer', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      expect(await permissionsOn(db, cast.teamAdmin.id, cast.team.accountId)).toEqual([
        'api',
        'billing',
        'domains',
        'links.create',
        'links.manage',
        'links.read',
        'members',
        'settings',
      ]);
      expect(await permissionsOn(db, cast.member.id, cast.team.accountId)).toEqual([
        'links.create',
        'links.read',
      ]);
      expect(await permissionsOn(db, cast.viewer.id, cast.team.accountId)).toEqual(['links.read']);
      // Team members get nothing on the organization itself.
      expect(await permissionsOn(db, cast.teamAdmin.id, cast.organization.accountId)).toEqual([]);
    }));

  it('strangers and staff hold nothing on an organization or team (staff is not implied)', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      for (const actor of [cast.stranger, cast.staff]) {
        expect(await permissionsOn(db, actor.id, cast.organization.accountId)).toEqual([]);
        expect(await permissionsOn(db, actor.id, cast.team.accountId)).toEqual([]);
      }
    }));

  it("everyone holds everything on their own personal account and nothing on another's", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      expect(await permissionsOn(db, cast.member.id, cast.member.personalAccountId)).toEqual(ALL);
      expect(await permissionsOn(db, cast.member.id, cast.viewer.personalAccountId)).toEqual([]);
      expect(await permissionsOn(db, cast.owner.id, cast.member.personalAccountId)).toEqual([]);
    }));

  it('accounts_with_permission lists the accounts where the caller holds it', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const ids = await asActor(db, cast.member.id, (as) =>
        all<{ id: string }>(as, `select app.accounts_with_permission('links.create') as id`),
      );
      expect(ids.map((r) => r.id).sort()).toEqual(
        [cast.member.personalAccountId, cast.team.accountId].sort(),
      );
      const managed = await asActor(db, cast.viewer.id, (as) =>
        all<{ id: string }>(as, `select app.accounts_with_permission('links.manage') as id`),
      );
      expect(managed.map((r) => r.id)).toEqual([cast.viewer.personalAccountId]);
    }));

  it('rejects a misspelt permission instead of silently answering false', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const error = await expectDatabaseError(
        asActor(db, user.id, (as) =>
          as.query(`select app.has_permission($1, 'links.write')`, [user.personalAccountId]),
        ),
      );
      expect(error.code).toBe('22023');
    }));

  it('anonymous callers cannot call the helpers at all', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await expectRefused(
        asActor(db, null, (as) =>
          as.query(`select app.has_permission($1, 'links.read')`, [user.personalAccountId]),
        ),
      );
    }));
});
