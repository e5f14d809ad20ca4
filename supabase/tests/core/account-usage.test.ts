import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  addTeamMember,
  asActor,
  createCast,
  createInvitation,
  createTeam,
  createUser,
  expectCoded,
  expectRefused,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { createDomain, createLink, givePlan } from '../links/fixtures.ts';

/**
 * public.account_usage: the usage pages' figures, per count option of the plan, read from the
 * counters the limits are enforced on, for whoever may manage the account's billing and staff.
 */
const pool = useDatabase();

interface LimitUsage {
  used: number | null;
  limit: number | null;
  soft_limit: number | null;
  overage: boolean;
}
interface Usage {
  period_starts_at: string;
  period_ends_at: string;
  limits: Record<string, LimitUsage>;
}

function usageAs(db: pg.ClientBase, actor: string | null, accountId: string) {
  return asActor(db, actor, (as) =>
    one<{ usage: Usage }>(as, 'select public.account_usage($1) as usage', [accountId]),
  ).then((row) => row.usage);
}

async function usedAs(db: pg.ClientBase, actor: string, accountId: string, option: string) {
  return (await usageAs(db, actor, accountId)).limits[option]?.used;
}

const monthStart = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
};

describe('public.account_usage', () => {
  it('answers the owner, team admins, organization owners and staff; refuses the others', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const team = cast.team.accountId;
      const org = cast.organization.accountId;
      for (const reader of [cast.owner, cast.teamAdmin, cast.staff]) {
        expect((await usageAs(db, reader.id, team)).limits.max_members?.used).toBe(3);
      }
      for (const reader of [cast.owner, cast.staff]) {
        expect((await usageAs(db, reader.id, org)).limits.max_teams?.used).toBe(1);
      }
      for (const reader of [cast.member, cast.viewer, cast.orgUser, cast.stranger]) {
        await expectCoded(usageAs(db, reader.id, team), 'permission_denied');
      }
      for (const reader of [cast.teamAdmin, cast.member, cast.stranger]) {
        await expectCoded(usageAs(db, reader.id, org), 'permission_denied');
      }
      expect(
        (await usageAs(db, cast.member.id, cast.member.personalAccountId)).limits.max_aliases,
      ).toMatchObject({ used: 0, soft_limit: null, overage: false });
      await expectCoded(
        usageAs(db, cast.stranger.id, cast.member.personalAccountId),
        'permission_denied',
      );
      // An unknown account answers as one the caller may not read.
      await expectCoded(
        usageAs(db, cast.owner.id, '00000000-0000-4000-8000-000000000000'),
        'permission_denied',
      );
      await expectRefused(usageAs(db, null, cast.member.personalAccountId));
    }));

  it('reports every count option with the plan limit and the UTC month as the period', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      await givePlan(db, account, { options: { max_aliases: 100, max_recent_urls: 5 } });
      await db.query(
        `insert into public.account_usage (account_id, name, "limit", soft_limit, overage_enabled)
         values ($1, 'max_redirects', 7, 5, true)`,
        [account],
      );
      const usage = await usageAs(db, user.id, account);
      const options = await one<{ names: string[] }>(
        db,
        'select app.plan_count_options() as names',
      );
      expect(Object.keys(usage.limits).sort()).toEqual([...options.names].sort());
      expect(usage.limits.max_aliases).toMatchObject({ used: 0, limit: 100 });
      expect(usage.limits.max_redirects).toEqual({
        used: 0,
        limit: 7,
        soft_limit: 5,
        overage: true,
        over: 0,
      });
      // A per-link allowance has no account-wide count.
      expect(usage.limits.max_recent_urls).toMatchObject({ used: null, limit: 5 });
      const start = monthStart();
      expect(new Date(usage.period_starts_at).getTime()).toBe(start.getTime());
      const end = new Date(start);
      end.setUTCMonth(end.getUTCMonth() + 1);
      expect(new Date(usage.period_ends_at).getTime()).toBe(end.getTime());
    }));

  it('counts links: all, this month, branded this month and active', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const common = await createDomain(db);
      const branded = await createDomain(db, { kind: 'branded', accountId: account });
      const link = { accountId: account, createdBy: user.id, domainId: common.id };
      const counted = [
        'max_aliases',
        'max_aliases_per_month',
        'max_branded_aliases_per_month',
        'max_active_aliases',
      ];
      const before = (await usageAs(db, user.id, account)).limits;
      expect(counted.map((name) => before[name]?.used)).toEqual([0, 0, 0, 0]);
      const lastMonth = new Date(monthStart().getTime() - 86_400_000);
      await createLink(db, { ...link, createdAt: lastMonth });
      await createLink(db, link);
      await createLink(db, { ...link, domainId: branded.id });
      await createLink(db, { ...link, status: 'archived' });
      await createLink(db, { ...link, expiresAt: new Date(Date.now() - 60_000) });
      const { limits } = await usageAs(db, user.id, account);
      expect(limits.max_aliases?.used).toBe(5);
      expect(limits.max_aliases_per_month?.used).toBe(4);
      expect(limits.max_branded_aliases_per_month?.used).toBe(1);
      expect(limits.max_active_aliases?.used).toBe(3);
    }));

  it('moves redirects and trackable clicks as clicks are recorded, and credits as spent', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      await givePlan(db, account, {
        options: {
          max_redirects: 100,
          max_trackable_clicks: 100,
          max_api_credits: 50,
          max_web_credits: 50,
        },
      });
      const domain = await createDomain(db);
      const link = await createLink(db, {
        accountId: account,
        createdBy: user.id,
        domainId: domain.id,
      });
      const before = (await usageAs(db, user.id, account)).limits;
      for (const name of [
        'max_redirects',
        'max_trackable_clicks',
        'max_api_credits',
        'max_web_credits',
      ]) {
        expect(before[name]?.used).toBe(0);
      }
      const click = {
        time: new Date().toISOString(),
        alias_id: link.id,
        route_id: null,
        country: 'SE',
        device: 'mobile',
        browser: 'Chrome',
        os: 'Android',
        referrer_host: null,
        is_bot: false,
        is_qr: false,
        ip_hash: '0f'.repeat(32),
      };
      await db.query('select * from app.record_clicks($1::json)', [JSON.stringify([click, click])]);
      await db.query(`select app.spend_usage($1, 'max_api_credits', 3)`, [account]);
      await db.query(`select app.spend_usage($1, 'max_web_credits', 5)`, [account]);
      const after = (await usageAs(db, user.id, account)).limits;
      expect(after.max_redirects?.used).toBe(2);
      expect(after.max_trackable_clicks?.used).toBe(2);
      expect(after.max_api_credits?.used).toBe(3);
      expect(after.max_web_credits?.used).toBe(5);
    }));

  it('counts a monthly counter as reset once the period has rolled over', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const last = new Date(monthStart().getTime() - 86_400_000);
      await db.query(
        `insert into public.account_usage (account_id, name, used, period_starts_at) values
           ($1, 'max_redirects', 12, $2), ($1, 'max_trackable_clicks', 9, $3)`,
        [account, monthStart(), last],
      );
      expect((await usageAs(db, user.id, account)).limits.max_redirects?.used).toBe(12);
      // The stored period ran out (the 1st of the month came): the roll resets both.
      await db.query(
        `update app.usage_periods set starts_at = $2, ends_at = now() where account_id = $1`,
        [account, last],
      );
      await db.query('select app.roll_usage_period($1)', [account]);
      const { limits } = await usageAs(db, user.id, account);
      expect(limits.max_redirects?.used).toBe(0);
      expect(limits.max_trackable_clicks?.used).toBe(0);
    }));

  it('counts domains, subdomains and vanity subdomains', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const domainOptions = [
        'max_domains',
        'max_subdomains',
        'max_domains_subdomains',
        'max_vanity_subdomains',
      ];
      const before = (await usageAs(db, user.id, account)).limits;
      expect(domainOptions.map((name) => before[name]?.used)).toEqual([0, 0, 0, 0]);
      const base = await createDomain(db, { kind: 'branded', accountId: account });
      await createDomain(db, { kind: 'branded', accountId: account, domain: `go.${base.domain}` });
      const shared = await createDomain(db);
      await createDomain(db, {
        kind: 'branded',
        accountId: account,
        baseDomainId: shared.id,
        domain: `me.${shared.domain}`,
      });
      const { limits } = await usageAs(db, user.id, account);
      expect(limits.max_domains?.used).toBe(1);
      expect(limits.max_subdomains?.used).toBe(1);
      expect(limits.max_domains_subdomains?.used).toBe(2);
      expect(limits.max_vanity_subdomains?.used).toBe(1);
    }));

  it('counts teams and member seats with pending invitations', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const team = await createTeam(db, { ownerId: owner.id });
      expect(await usedAs(db, owner.id, owner.personalAccountId, 'max_teams')).toBe(1);
      await createTeam(db, { ownerId: owner.id });
      expect(await usedAs(db, owner.id, owner.personalAccountId, 'max_teams')).toBe(2);
      const seatsBefore = await usedAs(db, owner.id, team.accountId, 'max_members');
      const mate = await createUser(db);
      await addTeamMember(db, { teamId: team.id, userId: mate.id, role: 'member' });
      await createInvitation(db, {
        inviterId: owner.id,
        email: `invitee-${mate.id}@example.test`,
        teamId: team.id,
        teamRole: 'member',
      });
      expect(await usedAs(db, owner.id, team.accountId, 'max_members')).toBe(
        (seatsBefore ?? 0) + 2,
      );
    }));
});
