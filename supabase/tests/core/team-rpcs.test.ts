import { describe, expect, it } from 'vitest';
import {
  createCast,
  createPlan,
  createTeam,
  createUser,
  expectCoded,
  expectProtectedColumn,
  expectRefused,
  one,
  queryAs,
  subscribe,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** create_organization, create_team, switch_team, leave_team_mode, archive_organization. */
const pool = useDatabase();

describe('switch_team', () => {
  it('a member switches to their team: team mode on, current team set', () =>
    withRollback(pool, async (db) => {
      const { team, member } = await createCast(db);
      const result = await queryAs(db, member.id, `select public.switch_team($1) as id`, [team.id]);
      expect(result.rows).toEqual([{ id: team.id }]);
      expect(
        await one(db, `select current_team_id, team_mode from public.profiles where id = $1`, [
          member.id,
        ]),
      ).toEqual({ current_team_id: team.id, team_mode: true });
    }));

  it('refuses a missing team with team_required', () =>
    withRollback(pool, async (db) => {
      const { member } = await createCast(db);
      await expectCoded(queryAs(db, member.id, `select public.switch_team(null)`), 'team_required');
    }));

  it("refuses someone else's, an unknown or an archived team with unknown_team", () =>
    withRollback(pool, async (db) => {
      const { team, member, stranger } = await createCast(db);
      await expectCoded(
        queryAs(db, stranger.id, `select public.switch_team($1)`, [team.id]),
        'unknown_team',
      );
      await expectCoded(
        queryAs(db, member.id, `select public.switch_team(gen_random_uuid())`),
        'unknown_team',
      );
      await db.query(`update public.teams set archived_at = now() where id = $1`, [team.id]);
      await expectCoded(
        queryAs(db, member.id, `select public.switch_team($1)`, [team.id]),
        'unknown_team',
      );
    }));

  it('leave_team_mode returns to the personal workspace', () =>
    withRollback(pool, async (db) => {
      const { team, member } = await createCast(db);
      await queryAs(db, member.id, `select public.switch_team($1)`, [team.id]);
      await queryAs(db, member.id, `select public.leave_team_mode()`);
      expect(
        await one(db, `select current_team_id, team_mode from public.profiles where id = $1`, [
          member.id,
        ]),
      ).toEqual({ current_team_id: null, team_mode: false });
    }));

  it('the current team and team mode cannot be set by a direct update', () =>
    withRollback(pool, async (db) => {
      const { team, stranger } = await createCast(db);
      await expectProtectedColumn(
        queryAs(db, stranger.id, `update public.profiles set current_team_id = $1 where id = $2`, [
          team.id,
          stranger.id,
        ]),
        'current_team_id',
      );
      await expectProtectedColumn(
        queryAs(db, stranger.id, `update public.profiles set team_mode = true where id = $1`, [
          stranger.id,
        ]),
        'team_mode',
      );
    }));

  it('anonymous callers cannot execute it', () =>
    withRollback(pool, async (db) => {
      const { team } = await createCast(db);
      await expectRefused(queryAs(db, null, `select public.switch_team($1)`, [team.id]));
    }));
});

describe('create_organization', () => {
  it('a user whose plan supports teams creates one and owns it', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const plan = await createPlan(db, { features: ['support_teams'] });
      await subscribe(db, { accountId: user.personalAccountId, plan });
      const slug = `org-${user.id.slice(0, 8)}`;
      const { rows } = await queryAs<{ id: string }>(
        db,
        user.id,
        `select public.create_organization('Globex', $1) as id`,
        [slug],
      );
      const created = await one(
        db,
        `select o.slug, a.kind, a.owner_id from public.organizations o
         join public.accounts a on a.id = o.account_id where o.id = $1`,
        [rows[0]?.id],
      );
      expect(created).toEqual({ slug, kind: 'organization', owner_id: user.id });
    }));

  it('refuses a user whose plan does not support teams with permission_denied', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await expectCoded(
        queryAs(db, user.id, `select public.create_organization('Globex', 'globex-x')`),
        'permission_denied',
      );
    }));

  it('validates the name and slug and refuses a taken slug', () =>
    withRollback(pool, async (db) => {
      const { organization } = await createCast(db);
      const user = await createUser(db);
      const plan = await createPlan(db, { features: ['support_teams'] });
      await subscribe(db, { accountId: user.personalAccountId, plan });
      await expectCoded(
        queryAs(db, user.id, `select public.create_organization(' ', 'fine')`),
        'name_required',
      );
      await expectCoded(
        queryAs(db, user.id, `select public.create_organization('Globex', 'Not A Slug')`),
        'slug_invalid',
      );
      await expectCoded(
        queryAs(db, user.id, `select public.create_organization('Globex', $1)`, [
          organization.slug,
        ]),
        'slug_taken',
      );
    }));
});

describe('create_team', () => {
  it('the organization owner creates a team and becomes its admin', () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      const { rows } = await queryAs<{ id: string }>(
        db,
        owner.id,
        `select public.create_team('Support', 'support', $1) as id`,
        [organization.id],
      );
      const membership = await one(
        db,
        `select t.organization_id, m.role from public.teams t
         join public.team_members m on m.team_id = t.id and m.user_id = $2 where t.id = $1`,
        [rows[0]?.id, owner.id],
      );
      expect(membership).toEqual({ organization_id: organization.id, role: 'admin' });
    }));

  it('needs the teams permission in the organization (permission_denied)', () =>
    withRollback(pool, async (db) => {
      const { organization, orgUser } = await createCast(db);
      await expectCoded(
        queryAs(db, orgUser.id, `select public.create_team('Support', 'support', $1)`, [
          organization.id,
        ]),
        'permission_denied',
      );
    }));

  it('an organization the caller cannot see is organization_not_found', () =>
    withRollback(pool, async (db) => {
      const { organization, stranger } = await createCast(db);
      await expectCoded(
        queryAs(db, stranger.id, `select public.create_team('Support', 'support', $1)`, [
          organization.id,
        ]),
        'organization_not_found',
      );
    }));

  it("stops at the organization plan's max_teams with team_limit_reached", () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      const plan = await createPlan(db, { options: { max_teams: 1 } });
      await subscribe(db, { accountId: organization.accountId, plan });
      await expectCoded(
        queryAs(db, owner.id, `select public.create_team('Support', 'support', $1)`, [
          organization.id,
        ]),
        'team_limit_reached',
      );
    }));

  it('refuses a slug already used in the organization', () =>
    withRollback(pool, async (db) => {
      const { organization, owner, team } = await createCast(db);
      await expectCoded(
        queryAs(db, owner.id, `select public.create_team('Again', $1, $2)`, [
          team.slug,
          organization.id,
        ]),
        'slug_taken',
      );
    }));

  it('a standalone team needs support_teams and room under max_teams', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await expectCoded(
        queryAs(db, user.id, `select public.create_team('Solo', 'solo-a')`),
        'team_limit_reached',
      );
      const plan = await createPlan(db, { features: ['support_teams'], options: { max_teams: 1 } });
      await subscribe(db, { accountId: user.personalAccountId, plan });
      const created = await queryAs(db, user.id, `select public.create_team('Solo', $1) as id`, [
        `solo-${user.id.slice(0, 8)}`,
      ]);
      expect(created.rowCount).toBe(1);
      await expectCoded(
        queryAs(db, user.id, `select public.create_team('Second', $1)`, [
          `second-${user.id.slice(0, 8)}`,
        ]),
        'team_limit_reached',
      );
    }));
});

describe('archive_organization', () => {
  it('the owner archives and restores the organization', () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      const archived = await queryAs<{ archived: boolean }>(
        db,
        owner.id,
        `select (public.archive_organization($1, true)).archived_at is not null as archived`,
        [organization.id],
      );
      expect(archived.rows).toEqual([{ archived: true }]);
      const restored = await queryAs<{ archived: boolean }>(
        db,
        owner.id,
        `select (public.archive_organization($1, false)).archived_at is not null as archived`,
        [organization.id],
      );
      expect(restored.rows).toEqual([{ archived: false }]);
    }));

  it('an org user is refused with permission_denied', () =>
    withRollback(pool, async (db) => {
      const { organization, orgUser } = await createCast(db, { limitedPermissions: ['profile'] });
      await expectCoded(
        queryAs(db, orgUser.id, `select public.archive_organization($1, true)`, [organization.id]),
        'permission_denied',
      );
    }));

  it('a stranger gets organization_not_found', () =>
    withRollback(pool, async (db) => {
      const { organization, stranger } = await createCast(db);
      await expectCoded(
        queryAs(db, stranger.id, `select public.archive_organization($1, true)`, [organization.id]),
        'organization_not_found',
      );
    }));

  it('a missing archive flag is archive_invalid', () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      await expectCoded(
        queryAs(db, owner.id, `select public.archive_organization($1, null)`, [organization.id]),
        'archive_invalid',
      );
    }));

  it('switching into a team of an archived organization is unknown_team', () =>
    withRollback(pool, async (db) => {
      const { organization, owner, member, team } = await createCast(db);
      await queryAs(db, owner.id, `select public.archive_organization($1, true)`, [
        organization.id,
      ]);
      await expectCoded(
        queryAs(db, member.id, `select public.switch_team($1)`, [team.id]),
        'unknown_team',
      );
    }));
});

describe('teams the factories make', () => {
  it('standalone teams share one slug namespace', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await createTeam(db, { ownerId: user.id, slug: `dup-${user.id.slice(0, 8)}` });
      await expect(
        createTeam(db, { ownerId: user.id, slug: `dup-${user.id.slice(0, 8)}` }),
      ).rejects.toMatchObject({ code: '23505' });
    }));
});
