import { describe, expect, it } from 'vitest';
import { asServiceRole, createDomain, createLink } from './links/fixtures.ts';
import {
  addOrganizationUser,
  addTeamMember,
  all,
  asActor,
  createOrganization,
  createOrganizationRole,
  createTeam,
  createUser,
  expectRefused,
  one,
  useDatabase,
  withRollback,
  type TestUser,
} from './support/index.ts';
import type pg from 'pg';

/**
 * app.delete_user_account: what goes and what stays, anonymised, when a user deletes their
 * account (settings/profile/delete). The account-delete function calls it after the password
 * check; profile-delete-function.test.ts drives that over HTTP.
 */

const pool = useDatabase();

const count = async (db: pg.ClientBase, sql: string, params: unknown[]) =>
  Number((await one<{ n: string }>(db, `select count(*) as n from ${sql}`, params)).n);

async function addClicks(db: pg.ClientBase, aliasId: string, accountId: string, clicks: number) {
  const hour = new Date(Date.now() - 3_600_000);
  hour.setUTCMinutes(0, 0, 0);
  for (let i = 0; i < clicks; i++) {
    await db.query(`insert into public.clicks (time, alias_id, account_id) values ($1, $2, $3)`, [
      new Date(hour.getTime() + i * 1000),
      aliasId,
      accountId,
    ]);
  }
  await db.query(
    `insert into public.click_stats_hourly (alias_id, hour, account_id, clicks, bot_clicks, qr_clicks)
     values ($1, $2, $3, $4, 0, 0)`,
    [aliasId, hour, accountId, clicks],
  );
  await db.query(
    `insert into public.account_click_stats_hourly (account_id, hour, clicks, bot_clicks, qr_clicks)
     values ($1, $2, $3, 0, 0)
     on conflict (account_id, hour) do update set clicks = excluded.clicks + account_click_stats_hourly.clicks`,
    [accountId, hour, clicks],
  );
}

const deleteAccount = (db: pg.ClientBase, userId: string) =>
  asServiceRole(db, (as) =>
    all<{ bucket: string; path: string }>(
      as,
      'select bucket, path from app.delete_user_account($1) order by bucket, path',
      [userId],
    ),
  );

/** A user with a bit of everything, some others around them, and what they share. */
async function scene(db: pg.ClientBase) {
  const leaver = await createUser(db);
  const teammate = await createUser(db);
  const otherOwner = await createUser(db);
  const common = await createDomain(db);

  // Their own workspace: a link with clicks, a tag, a branded domain with a link on it.
  const branded = await createDomain(db, { kind: 'branded', accountId: leaver.personalAccountId });
  const ownLink = await createLink(db, {
    accountId: leaver.personalAccountId,
    createdBy: leaver.id,
    domainId: common.id,
    tags: ['mine'],
  });
  const brandedLink = await createLink(db, {
    accountId: leaver.personalAccountId,
    createdBy: leaver.id,
    domainId: branded.id,
  });
  await addClicks(db, ownLink.id, leaver.personalAccountId, 3);

  // A team they own, with a teammate's link in it.
  const ownedTeam = await createTeam(db, { ownerId: leaver.id });
  await addTeamMember(db, { teamId: ownedTeam.id, userId: teammate.id, role: 'member' });
  const teammateLinkInOwnedTeam = await createLink(db, {
    accountId: ownedTeam.accountId,
    createdBy: teammate.id,
    domainId: common.id,
  });
  await addClicks(db, teammateLinkInOwnedTeam.id, ownedTeam.accountId, 2);

  // Someone else's team and organization they belong to, with links they made there.
  const othersTeam = await createTeam(db, { ownerId: otherOwner.id });
  await addTeamMember(db, { teamId: othersTeam.id, userId: leaver.id, role: 'member' });
  const linkInOthersTeam = await createLink(db, {
    accountId: othersTeam.accountId,
    createdBy: leaver.id,
    domainId: common.id,
  });
  await addClicks(db, linkInOthersTeam.id, othersTeam.accountId, 4);
  const org = await createOrganization(db, { ownerId: otherOwner.id });
  const role = await createOrganizationRole(db, { organizationId: org.id, permissions: [] });
  await addOrganizationUser(db, { organizationId: org.id, userId: leaver.id, roleId: role.id });

  await db.query(
    `insert into public.notifications (user_id, type, title) values ($1, 'test', 'Hello')`,
    [leaver.id],
  );
  await db.query(
    `insert into storage.objects (bucket_id, name, owner) values
       ('avatars', $1 || '/11111111-1111-4111-8111-111111111111.png', $2),
       ('imports', $1 || '/upload.csv', $2),
       ('avatars', $3 || '/22222222-2222-4222-8222-222222222222.png', $4)`,
    [leaver.id, leaver.id, teammate.id, teammate.id],
  );
  return {
    leaver,
    teammate,
    otherOwner,
    branded,
    ownLink,
    brandedLink,
    ownedTeam,
    othersTeam,
    teammateLinkInOwnedTeam,
    linkInOthersTeam,
    org,
  };
}

const userExists = async (db: pg.ClientBase, user: TestUser) =>
  (await count(db, 'auth.users where id = $1', [user.id])) === 1;

describe('app.delete_user_account', () => {
  it('deletes the user, their profile, workspace, links, tags, domains and clicks', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await deleteAccount(db, s.leaver.id);

      expect(await userExists(db, s.leaver)).toBe(false);
      expect(await count(db, 'public.profiles where id = $1', [s.leaver.id])).toBe(0);
      expect(await count(db, 'public.accounts where owner_id = $1', [s.leaver.id])).toBe(0);
      const ownLinks = [s.ownLink.id, s.brandedLink.id];
      expect(await count(db, 'public.aliases where id = any($1)', [ownLinks])).toBe(0);
      expect(
        await count(db, 'public.long_urls where account_id = $1', [s.leaver.personalAccountId]),
      ).toBe(0);
      expect(
        await count(db, 'public.tags where account_id = $1', [s.leaver.personalAccountId]),
      ).toBe(0);
      expect(await count(db, 'public.domains where id = $1', [s.branded.id])).toBe(0);
      expect(await count(db, 'public.clicks where alias_id = $1', [s.ownLink.id])).toBe(0);
      expect(await count(db, 'public.click_stats_hourly where alias_id = $1', [s.ownLink.id])).toBe(
        0,
      );
      expect(
        await count(db, 'public.account_click_stats_hourly where account_id = $1', [
          s.leaver.personalAccountId,
        ]),
      ).toBe(0);
      expect(await count(db, 'public.notifications where user_id = $1', [s.leaver.id])).toBe(0);
    }));

  it('deletes the teams they own with the links in them, and their memberships elsewhere', () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await deleteAccount(db, s.leaver.id);

      expect(await count(db, 'public.teams where id = $1', [s.ownedTeam.id])).toBe(0);
      expect(await count(db, 'public.team_members where team_id = $1', [s.ownedTeam.id])).toBe(0);
      expect(await count(db, 'public.aliases where id = $1', [s.teammateLinkInOwnedTeam.id])).toBe(
        0,
      );
      expect(
        await count(db, 'public.clicks where alias_id = $1', [s.teammateLinkInOwnedTeam.id]),
      ).toBe(0);
      expect(await count(db, 'public.team_members where user_id = $1', [s.leaver.id])).toBe(0);
      expect(await count(db, 'public.organization_users where user_id = $1', [s.leaver.id])).toBe(
        0,
      );
      // The teammate keeps their own account.
      expect(await userExists(db, s.teammate)).toBe(true);
    }));

  it("keeps what they made in other people's accounts, with no creator", () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      await deleteAccount(db, s.leaver.id);

      const kept = await one<{ created_by: string | null; account_id: string }>(
        db,
        'select created_by, account_id from public.aliases where id = $1',
        [s.linkInOthersTeam.id],
      );
      expect(kept).toEqual({ created_by: null, account_id: s.othersTeam.accountId });
      expect(await count(db, 'public.clicks where alias_id = $1', [s.linkInOthersTeam.id])).toBe(4);
      expect(await count(db, 'public.teams where id = $1', [s.othersTeam.id])).toBe(1);
      expect(await count(db, 'public.organizations where id = $1', [s.org.id])).toBe(1);
    }));

  it("answers the files Storage must delete: only the user's own folders", () =>
    withRollback(pool, async (db) => {
      const s = await scene(db);
      const files = await deleteAccount(db, s.leaver.id);
      expect(files).toEqual([
        { bucket: 'avatars', path: `${s.leaver.id}/11111111-1111-4111-8111-111111111111.png` },
        { bucket: 'imports', path: `${s.leaver.id}/upload.csv` },
      ]);
    }));

  it('refuses an unknown user', () =>
    withRollback(pool, async (db) => {
      await expect(deleteAccount(db, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject(
        {
          code: 'PT404',
          message: 'user_not_found',
        },
      );
    }));

  it('is out of reach of users and guests: only the service role may call it', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await expectRefused(
        asActor(db, user.id, (as) =>
          as.query('select * from app.delete_user_account($1)', [user.id]),
        ),
      );
      await expectRefused(
        asActor(db, null, (as) => as.query('select * from app.delete_user_account($1)', [user.id])),
      );
      expect(await userExists(db, user)).toBe(true);
    }));
});
