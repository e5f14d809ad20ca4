import { describe, expect, it } from 'vitest';
import {
  createCast,
  expectDatabaseError,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/**
 * What the roles page (organization/{org}/settings/roles) does through PostgREST, by actor:
 * rename, re-scope and delete a role; the refusals it turns into messages; the trail it leaves.
 * (Creating by actor is in organizations.test.ts.)
 */
const pool = useDatabase();

describe('organization roles as the roles page changes them', () => {
  it('a holder of roles renames and re-scopes a role, leaving it in the audit trail', () =>
    withRollback(pool, async (db) => {
      const { organization, orgUser, supervisorRole } = await createCast(db, {
        limitedPermissions: ['roles'],
      });
      const updated = await queryAs(
        db,
        orgUser.id,
        `update public.organization_roles set name = 'Leads', permissions = '{supervisor,teams}'
         where id = $1`,
        [supervisorRole.id],
      );
      expect(updated.rowCount).toBe(1);
      const { rows } = await db.query(
        `select action, target, old_values ->> 'permissions' as before,
           new_values ->> 'permissions' as after
         from public.audit_events
         where organization_id = $1 and subject_id = $2 and actor_id = $3`,
        [organization.id, supervisorRole.id, orgUser.id],
      );
      expect(rows).toEqual([
        {
          action: 'organization_role.updated',
          target: 'Leads',
          before: '["supervisor"]',
          after: '["supervisor", "teams"]',
        },
      ]);
    }));

  it('refuses a second role of the same name (23505) and deleting a role people hold (23503)', () =>
    withRollback(pool, async (db) => {
      const { organization, owner, limitedRole } = await createCast(db);
      const duplicate = await expectDatabaseError(
        queryAs(
          db,
          owner.id,
          `insert into public.organization_roles (organization_id, name, permissions)
           values ($1, 'Supervisor', '{}')`,
          [organization.id],
        ),
      );
      expect(duplicate.code).toBe('23505');
      const held = await expectDatabaseError(
        queryAs(db, owner.id, `delete from public.organization_roles where id = $1`, [
          limitedRole.id,
        ]),
      );
      expect(held.code).toBe('23503');
      const unused = await queryAs(
        db,
        owner.id,
        `insert into public.organization_roles (organization_id, name, permissions)
         values ($1, 'Unused', '{audit}') returning id`,
        [organization.id],
      );
      const deleted = await queryAs(
        db,
        owner.id,
        `delete from public.organization_roles where id = $1`,
        [unused.rows[0]!.id],
      );
      expect(deleted.rowCount).toBe(1);
    }));

  it('members without roles, team people, strangers and staff change nothing', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      for (const actor of [
        cast.orgUser,
        cast.supervisor,
        cast.teamAdmin,
        cast.stranger,
        cast.staff,
      ]) {
        const renamed = await queryAs(
          db,
          actor.id,
          `update public.organization_roles set name = 'Hijacked' where id = $1`,
          [cast.limitedRole.id],
        );
        expect(renamed.rowCount).toBe(0);
        const deleted = await queryAs(
          db,
          actor.id,
          `delete from public.organization_roles where id = $1`,
          [cast.supervisorRole.id],
        );
        expect(deleted.rowCount).toBe(0);
      }
    }));
});
