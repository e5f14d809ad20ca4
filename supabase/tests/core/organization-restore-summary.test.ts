import { describe, expect, it } from 'vitest';
import { createDomain, createLink } from '../links/fixtures.ts';
import {
  createCast,
  expectCoded,
  expectRefused,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** organization_restore_summary: what the restore-organization modal shows, by actor. */
const pool = useDatabase();

interface Summary {
  admins: { name: string; email: string }[];
  admin_count: number;
  team_count: number;
  member_count: number;
  link_count: number;
}

const summaryAs = (db: Parameters<typeof queryAs>[0], userId: string | null, orgId: string) =>
  queryAs<{ summary: Summary }>(
    db,
    userId,
    `select public.organization_restore_summary($1) as summary`,
    [orgId],
  );

describe('organization_restore_summary', () => {
  it('gives the owner the counts of admins, teams, members and links, archived or not', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const domain = await createDomain(db);
      const link = (status: string) =>
        createLink(db, {
          accountId: cast.team.accountId,
          createdBy: cast.member.id,
          domainId: domain.id,
          organizationId: cast.organization.id,
          status,
        });
      await link('active');
      await link('archived');
      await link('deleted');
      await db.query(`update public.organizations set archived_at = now() where id = $1`, [
        cast.organization.id,
      ]);
      const { rows } = await summaryAs(db, cast.owner.id, cast.organization.id);
      const summary = rows[0]!.summary;
      // Owner first, then the two organization users (the limited one and the supervisor).
      expect(summary.admins.map((admin) => admin.name)).toEqual([
        'Owner',
        'Org user',
        'Supervisor',
      ]);
      expect(summary).toMatchObject({
        admin_count: 3,
        team_count: 1,
        // Team admin, member and viewer (the owner created the team without joining it here).
        member_count: 3,
        link_count: 2,
      });
    }));

  it('refuses organization users, team members and staff with permission_denied', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['profile', 'teams', 'audit'] });
      for (const actor of [cast.orgUser, cast.supervisor, cast.teamAdmin, cast.member]) {
        await expectCoded(summaryAs(db, actor.id, cast.organization.id), 'permission_denied');
      }
    }));

  it('hides the organization from strangers, staff and unknown ids', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      for (const actor of [cast.stranger, cast.staff]) {
        await expectCoded(summaryAs(db, actor.id, cast.organization.id), 'organization_not_found');
      }
      await expectCoded(
        queryAs(db, cast.owner.id, `select public.organization_restore_summary(gen_random_uuid())`),
        'organization_not_found',
      );
    }));

  it('is not executable anonymously', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await expectRefused(summaryAs(db, null, cast.organization.id));
    }));
});
