import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  asActor,
  createCast,
  createUser,
  expectCoded,
  expectRefused,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { createDomain, createLink, givePlan } from './fixtures.ts';

/**
 * public.account_limits: the create form's limits data, read by whoever may read the account's
 * links, with active aliases counted as app.check_link_limits counts them.
 */
const pool = useDatabase();

interface LimitUsage {
  used: number;
  limit: number | null;
  soft_limit: number | null;
  overage: boolean;
}
type Limits = Record<'max_active_aliases' | 'max_web_credits', LimitUsage>;

function limitsAs(db: pg.ClientBase, actor: string | null, accountId: string) {
  return asActor(db, actor, (as) =>
    one<{ limits: Limits }>(as, 'select public.account_limits($1) as limits', [accountId]),
  ).then((row) => row.limits);
}

describe('public.account_limits', () => {
  it('counts live links against the plan limit and reports the credits spent', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      await givePlan(db, account, { options: { max_active_aliases: 3, max_web_credits: 10 } });
      const domain = await createDomain(db);
      const link = { accountId: account, createdBy: user.id, domainId: domain.id };
      await createLink(db, link);
      await createLink(db, link);
      await createLink(db, { ...link, status: 'archived' });
      await createLink(db, { ...link, expiresAt: new Date(Date.now() - 60_000) });
      await db.query(
        `insert into public.account_usage (account_id, name, used) values ($1, 'max_web_credits', 4)`,
        [account],
      );

      expect(await limitsAs(db, user.id, account)).toEqual({
        max_active_aliases: { used: 2, limit: 3, soft_limit: null, overage: false },
        max_web_credits: { used: 4, limit: 10, soft_limit: null, overage: false },
      });
    }));

  it('reports a staff override of the limit and the overage switch', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      await givePlan(db, account, { options: { max_active_aliases: 3 } });
      await db.query(
        `insert into public.account_usage (account_id, name, "limit", soft_limit, overage_enabled)
         values ($1, 'max_active_aliases', 0, 0, true)`,
        [account],
      );
      const limits = await limitsAs(db, user.id, account);
      expect(limits.max_active_aliases).toEqual({
        used: 0,
        limit: 0,
        soft_limit: 0,
        overage: true,
      });
      // The plan sets no credit limit: unlimited.
      expect(limits.max_web_credits).toEqual({
        used: 0,
        limit: null,
        soft_limit: null,
        overage: false,
      });
    }));

  it('answers team members for their team and refuses strangers and guests', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const teamAccount = cast.team.accountId;
      for (const reader of [cast.owner, cast.teamAdmin, cast.member, cast.viewer]) {
        const limits = await limitsAs(db, reader.id, teamAccount);
        expect(limits.max_active_aliases.used).toBe(0);
      }
      await expectCoded(limitsAs(db, cast.stranger.id, teamAccount), 'permission_denied');
      await expectCoded(
        limitsAs(db, cast.stranger.id, cast.member.personalAccountId),
        'permission_denied',
      );
      await expectRefused(limitsAs(db, null, cast.member.personalAccountId));
    }));
});
