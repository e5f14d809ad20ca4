import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createCast,
  createPlan,
  createUser,
  expectRefused,
  one,
  queryAs,
  subscribe,
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';

/**
 * The subscription lifecycle's database side (20261122004700): who may manage which account's
 * plan (app.billing_account, by actor), who may read and change subscriptions and billing
 * customers, plan eligibility by teams and members, and Stripe schedules as pending downgrades.
 */
const pool = useDatabase();

async function billingAccount(
  db: pg.ClientBase,
  actor: string | null,
  organization: string | null,
  team: string | null,
): Promise<string | null> {
  const result = await queryAs<{ account: string | null }>(
    db,
    actor,
    `select app.billing_account($1, $2) as account`,
    [organization, team],
  );
  return result.rows[0]!.account;
}

async function withSubscriptionsRole(db: pg.ClientBase, cast: Cast) {
  const role = await one<{ id: string }>(
    db,
    `insert into public.organization_roles (organization_id, name, permissions)
     values ($1, 'Billing', '{subscriptions}') returning id`,
    [cast.organization.id],
  );
  const user = await createUser(db);
  await db.query(
    `insert into public.organization_users (organization_id, user_id, role_id) values ($1, $2, $3)`,
    [cast.organization.id, user.id, role.id],
  );
  return user;
}

describe('app.billing_account by actor', () => {
  it('the organization: the owner and a user whose role has subscriptions; nobody else', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const biller = await withSubscriptionsRole(db, cast);
      const slug = cast.organization.slug;
      for (const actor of [cast.owner, biller])
        expect(await billingAccount(db, actor.id, slug, null)).toBe(cast.organization.accountId);
      for (const actor of [
        cast.orgUser,
        cast.supervisor,
        cast.teamAdmin,
        cast.member,
        cast.stranger,
        cast.staff,
      ])
        expect(await billingAccount(db, actor.id, slug, null)).toBeNull();
      // Anonymous callers cannot even ask.
      await expectRefused(billingAccount(db, null, slug, null));
    }));

  it('a team: the owner, a team admin and the organization biller; not members or strangers', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const biller = await withSubscriptionsRole(db, cast);
      const [org, team] = [cast.organization.slug, cast.team.slug];
      for (const actor of [cast.owner, cast.teamAdmin, biller])
        expect(await billingAccount(db, actor.id, org, team)).toBe(cast.team.accountId);
      for (const actor of [cast.member, cast.viewer, cast.orgUser, cast.stranger, cast.staff])
        expect(await billingAccount(db, actor.id, org, team)).toBeNull();
      // The right team name under another organization is no way in.
      expect(await billingAccount(db, cast.teamAdmin.id, 'elsewhere', team)).toBeNull();
    }));

  it("a person's own account, and nobody else's; unknown accounts answer like forbidden ones", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      expect(await billingAccount(db, cast.member.id, null, null)).toBe(
        cast.member.personalAccountId,
      );
      expect(await billingAccount(db, cast.owner.id, 'no-such-org', null)).toBeNull();
    }));
});

describe('subscriptions and billing customers by actor', () => {
  it('members read the plan, billing managers the customer; nobody signed in writes either', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const plan = await createPlan(db);
      const subscription = await subscribe(db, { accountId: cast.team.accountId, plan });
      await db.query(
        `insert into public.billing_customers (account_id, billing_type, billing_id)
         values ($1, 1, $2)`,
        [cast.team.accountId, `cus_test_${subscription.id.slice(0, 8)}`],
      );
      const reads = async (actor: string | null, table: string) =>
        (
          await queryAs(db, actor, `select 1 from public.${table} where account_id = $1`, [
            cast.team.accountId,
          ])
        ).rowCount;
      for (const actor of [cast.owner, cast.teamAdmin, cast.member, cast.viewer, cast.staff])
        expect(await reads(actor.id, 'subscriptions')).toBe(1);
      expect(await reads(cast.stranger.id, 'subscriptions')).toBe(0);
      for (const actor of [cast.owner, cast.teamAdmin, cast.staff])
        expect(await reads(actor.id, 'billing_customers')).toBe(1);
      for (const actor of [cast.member, cast.viewer, cast.orgUser, cast.stranger])
        expect(await reads(actor.id, 'billing_customers')).toBe(0);
      for (const actor of [cast.owner, cast.teamAdmin, cast.staff]) {
        await expectRefused(
          queryAs(
            db,
            actor.id,
            `update public.subscriptions set name = 'enterprise' where id = $1`,
            [subscription.id],
          ),
        );
        await expectRefused(
          queryAs(db, actor.id, `delete from public.billing_customers where account_id = $1`, [
            cast.team.accountId,
          ]),
        );
      }
      await expectRefused(queryAs(db, null, `select 1 from public.subscriptions`));
    }));
});

describe('app.plan_fits_account', () => {
  it("counts an organization's teams and users against max_teams and max_members", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const fits = async (options: Record<string, unknown>) => {
        const plan = await createPlan(db, { options });
        return (
          await one<{ fits: boolean }>(db, `select app.plan_fits_account($1, $2) as fits`, [
            cast.organization.accountId,
            plan.priceId,
          ])
        ).fits;
      };
      // The cast: one team, two organization users.
      expect(await fits({})).toBe(true);
      expect(await fits({ max_teams: 1, max_members: 2 })).toBe(true);
      expect(await fits({ max_teams: 0 })).toBe(false);
      expect(await fits({ max_members: 1 })).toBe(false);
    }));
});

describe('Stripe schedules as pending downgrades', () => {
  it('the next phase is a future subscription that leaves the plan alone until it starts', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const current = await createPlan(db, { features: ['use_bulk'] });
      const cheaper = await createPlan(db);
      await subscribe(db, { accountId: user.personalAccountId, plan: current });
      await db.query(
        `update public.subscriptions set billing_id = 'sub_life1' where account_id = $1`,
        [user.personalAccountId],
      );
      const start = Math.floor(Date.now() / 1000) + 86_400;
      const schedule = (status: string, currentStart: number) => ({
        id: 'sub_sched_life1',
        object: 'subscription_schedule',
        status,
        subscription: status === 'released' ? null : 'sub_life1',
        released_subscription: status === 'released' ? 'sub_life1' : null,
        current_phase: status === 'released' ? null : { start_date: currentStart, end_date: start },
        phases: [
          { start_date: currentStart, end_date: start, metadata: {} },
          {
            start_date: start,
            end_date: start + 365 * 86_400,
            metadata: { plan_price_id: cheaper.priceId },
          },
        ],
      });
      const apply = (value: unknown, at: number) =>
        one<{ result: string }>(
          db,
          `select app.apply_stripe_subscription_schedule($1, to_timestamp($2)) as result`,
          [JSON.stringify(value), at],
        );
      const t0 = Math.floor(Date.now() / 1000);
      expect((await apply(schedule('active', t0 - 10), t0)).result).toBe('applied');
      const future = await one<{ name: string; ends_at: Date | null; period_starts_at: Date }>(
        db,
        `select name, ends_at, period_starts_at from public.subscriptions
         where billing_id = 'sub_sched_life1'`,
      );
      expect(future.name).toBe(cheaper.name);
      expect(future.ends_at).toBeNull();
      expect(future.period_starts_at.getTime()).toBe(start * 1000);
      const still = await one<{ has: boolean }>(
        db,
        `select app.account_has_feature($1, 'use_bulk') as has`,
        [user.personalAccountId],
      );
      expect(still.has).toBe(true);

      // Released: ended before it started; the older "active" event, replayed, is stale.
      expect((await apply(schedule('released', t0 - 10), t0 + 5)).result).toBe('applied');
      expect((await apply(schedule('active', t0 - 10), t0)).result).toBe('stale');
      const ended = await one<{ ends_at: Date | null }>(
        db,
        `select ends_at from public.subscriptions where billing_id = 'sub_sched_life1'`,
      );
      expect(ended.ends_at).not.toBeNull();
    }));

  it('waits for the subscription it belongs to (the retry applies it)', () =>
    withRollback(pool, async (db) => {
      await expect(
        db.query(`select app.apply_stripe_subscription_schedule($1, now())`, [
          JSON.stringify({ id: 'sub_sched_orphan', subscription: 'sub_unknown', status: 'active' }),
        ]),
      ).rejects.toThrow(/not recorded yet/);
    }));
});
