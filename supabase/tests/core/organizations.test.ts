import { describe, expect, it } from 'vitest';
import {
  createCast,
  createUser,
  expectDatabaseError,
  expectProtectedColumn,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** Organizations, their roles and their users, by actor. */
const pool = useDatabase();

describe('organizations by actor', () => {
  it('owner: reads, renames (the account follows) and deletes the organization', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const { organization, owner } = cast;
      const read = await queryAs(
        db,
        owner.id,
        `select slug from public.organizations where id = $1`,
        [organization.id],
      );
      expect(read.rows).toEqual([{ slug: organization.slug }]);
      const renamed = await queryAs(
        db,
        owner.id,
        `update public.organizations set name = 'Renamed Inc.' where id = $1`,
        [organization.id],
      );
      expect(renamed.rowCount).toBe(1);
      const account = await one(db, `select name from public.accounts where id = $1`, [
        organization.accountId,
      ]);
      expect(account).toEqual({ name: 'Renamed Inc.' });
      const deleted = await queryAs(
        db,
        owner.id,
        `delete from public.organizations where id = $1`,
        [organization.id],
      );
      expect(deleted.rowCount).toBe(1);
      const left = await one<{ accounts: string; teams: string }>(
        db,
        `select (select count(*) from public.accounts where id = $1) as accounts,
                (select count(*) from public.teams where id = $2) as teams`,
        [organization.accountId, cast.team.id],
      );
      expect(left).toEqual({ accounts: '0', teams: '0' });
    }));

  it('owner: cannot archive by a direct update (archive_organization does that)', () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      await expectProtectedColumn(
        queryAs(db, owner.id, `update public.organizations set archived_at = now() where id = $1`, [
          organization.id,
        ]),
        'archived_at',
      );
    }));

  it('org user with a limited role: reads the organization, roles and users but cannot rename it', () =>
    withRollback(pool, async (db) => {
      const { organization, orgUser, supervisor } = await createCast(db);
      const orgs = await queryAs(db, orgUser.id, `select id from public.organizations`);
      expect(orgs.rows).toEqual([{ id: organization.id }]);
      const roles = await queryAs(
        db,
        orgUser.id,
        `select name from public.organization_roles order by name`,
      );
      expect(roles.rows).toEqual([{ name: 'Limited' }, { name: 'Supervisor' }]);
      const users = await queryAs<{ user_id: string }>(
        db,
        orgUser.id,
        `select user_id from public.organization_users`,
      );
      expect(users.rows.map((r) => r.user_id).sort()).toEqual([orgUser.id, supervisor.id].sort());
      const rename = await queryAs(
        db,
        orgUser.id,
        `update public.organizations set name = 'Hijacked' where id = $1`,
        [organization.id],
      );
      expect(rename.rowCount).toBe(0);
      const deleted = await queryAs(
        db,
        orgUser.id,
        `delete from public.organizations where id = $1`,
        [organization.id],
      );
      expect(deleted.rowCount).toBe(0);
    }));

  it('org user with the profile permission: renames the organization', () =>
    withRollback(pool, async (db) => {
      const { organization, orgUser } = await createCast(db, { limitedPermissions: ['profile'] });
      const rename = await queryAs(
        db,
        orgUser.id,
        `update public.organizations set name = 'New name' where id = $1`,
        [organization.id],
      );
      expect(rename.rowCount).toBe(1);
    }));

  it('org user with the roles permission: creates roles with valid permissions only', () =>
    withRollback(pool, async (db) => {
      const { organization, orgUser } = await createCast(db, { limitedPermissions: ['roles'] });
      const created = await queryAs(
        db,
        orgUser.id,
        `insert into public.organization_roles (organization_id, name, permissions)
         values ($1, 'Auditors', '{audit}')`,
        [organization.id],
      );
      expect(created.rowCount).toBe(1);
      const error = await expectDatabaseError(
        queryAs(
          db,
          orgUser.id,
          `insert into public.organization_roles (organization_id, name, permissions)
           values ($1, 'Gods', '{everything}')`,
          [organization.id],
        ),
      );
      expect(error.code).toBe('23514');
    }));

  it('org user without the roles permission: cannot create a role', () =>
    withRollback(pool, async (db) => {
      const { organization, orgUser } = await createCast(db);
      await expectRefused(
        queryAs(
          db,
          orgUser.id,
          `insert into public.organization_roles (organization_id, name, permissions)
           values ($1, 'Sneaky', '{users}')`,
          [organization.id],
        ),
      );
    }));

  it("org user with the users permission: changes others' roles, never their own", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['users'] });
      const { organization, orgUser, supervisor, supervisorRole, limitedRole } = cast;
      const other = await queryAs(
        db,
        orgUser.id,
        `update public.organization_users set role_id = $3
         where organization_id = $1 and user_id = $2`,
        [organization.id, supervisor.id, limitedRole.id],
      );
      expect(other.rowCount).toBe(1);
      const own = await queryAs(
        db,
        orgUser.id,
        `update public.organization_users set role_id = $3
         where organization_id = $1 and user_id = $2`,
        [organization.id, orgUser.id, supervisorRole.id],
      );
      expect(own.rowCount).toBe(0);
    }));

  it('nobody adds organization users directly (only by accepting an invitation)', () =>
    withRollback(pool, async (db) => {
      const { organization, owner, limitedRole } = await createCast(db);
      const newcomer = await createUser(db);
      await expectRefused(
        queryAs(
          db,
          owner.id,
          `insert into public.organization_users (organization_id, user_id, role_id)
           values ($1, $2, $3)`,
          [organization.id, newcomer.id, limitedRole.id],
        ),
      );
    }));

  it('org users may leave the organization', () =>
    withRollback(pool, async (db) => {
      const { organization, orgUser } = await createCast(db);
      const left = await queryAs(
        db,
        orgUser.id,
        `delete from public.organization_users where organization_id = $1 and user_id = $2`,
        [organization.id, orgUser.id],
      );
      expect(left.rowCount).toBe(1);
    }));

  it('team member (not an org user): sees the organization, not its roles or users', () =>
    withRollback(pool, async (db) => {
      const { organization, member } = await createCast(db);
      const orgs = await queryAs(db, member.id, `select id from public.organizations`);
      expect(orgs.rows).toEqual([{ id: organization.id }]);
      const roles = await queryAs(db, member.id, `select id from public.organization_roles`);
      expect(roles.rows).toEqual([]);
      const users = await queryAs(db, member.id, `select user_id from public.organization_users`);
      expect(users.rows).toEqual([]);
    }));

  it('stranger: sees nothing and changes nothing', () =>
    withRollback(pool, async (db) => {
      const { organization, stranger } = await createCast(db);
      for (const table of ['organizations', 'organization_roles', 'organization_users']) {
        const seen = await queryAs(db, stranger.id, `select * from public.${table}`);
        expect(seen.rows, table).toEqual([]);
      }
      const rename = await queryAs(
        db,
        stranger.id,
        `update public.organizations set name = 'Mine now' where id = $1`,
        [organization.id],
      );
      expect(rename.rowCount).toBe(0);
    }));

  it('staff: reads every organization, role and user but changes nothing', () =>
    withRollback(pool, async (db) => {
      const { organization, staff } = await createCast(db);
      const seen = await queryAs(
        db,
        staff.id,
        `select id from public.organizations where id = $1`,
        [organization.id],
      );
      expect(seen.rows).toEqual([{ id: organization.id }]);
      const roles = await queryAs(
        db,
        staff.id,
        `select count(*)::int as n from public.organization_roles where organization_id = $1`,
        [organization.id],
      );
      expect(roles.rows).toEqual([{ n: 2 }]);
      const rename = await queryAs(
        db,
        staff.id,
        `update public.organizations set name = 'Staff was here' where id = $1`,
        [organization.id],
      );
      expect(rename.rowCount).toBe(0);
    }));

  it('anonymous: refused outright', () =>
    withRollback(pool, async (db) => {
      await createCast(db);
      await expectRefused(queryAs(db, null, `select id from public.organizations`));
    }));

  it('nobody creates an organization row directly (create_organization does)', () =>
    withRollback(pool, async (db) => {
      const { owner } = await createCast(db);
      await expectRefused(
        queryAs(
          db,
          owner.id,
          `insert into public.organizations (account_id, slug, name) values ($1, 'direct', 'Direct')`,
          [owner.personalAccountId],
        ),
      );
    }));
});
