import { describe, expect, it } from 'vitest';
import { createDomain, createLink } from '../links/fixtures.ts';
import {
  asActor,
  createCast,
  createPlan,
  expectCoded,
  one,
  queryAs,
  subscribe,
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';

/**
 * The audit trail beyond the organization's own tables (20261122003800_audit_trail.sql): domains,
 * API tokens, subscriptions and link states, with target and IP; the audit page's calls by
 * actor; retention by plan.
 */
const pool = useDatabase();

interface Event {
  action: string;
  target: string | null;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
}

/** The organization's events since `afterId`, oldest first, as postgres sees them. */
async function eventsSince(
  db: Parameters<Parameters<typeof withRollback>[1]>[0],
  organizationId: string,
  afterId: number,
): Promise<Event[]> {
  const { rows } = await db.query<Event>(
    `select action, target, old_values, new_values from public.audit_events
     where organization_id = $1 and id > $2 order by id`,
    [organizationId, afterId],
  );
  return rows;
}

async function lastEventId(db: Parameters<Parameters<typeof withRollback>[1]>[0]) {
  const row = await one<{ id: number }>(
    db,
    `select coalesce(max(id), 0)::int as id from public.audit_events`,
  );
  return row.id;
}

describe('audit trail: what is written', () => {
  it('records an organization domain and a team token, never their secrets or last use', () =>
    withRollback(pool, async (db) => {
      const { organization, team } = await createCast(db);
      const before = await lastEventId(db);
      const domain = await createDomain(db, {
        kind: 'organization',
        accountId: organization.accountId,
        domain: 'acme-audit.example',
      });
      await db.query(`update public.domains set for_all_teams = false where id = $1`, [domain.id]);
      const token = await one<{ id: string }>(
        db,
        `insert into public.api_tokens (account_id, name, token_hash, token_prefix, abilities)
         values ($1, 'CI deploys', extensions.digest('secret', 'sha256'), 'slt_abcd',
           (app.api_token_abilities())[1:1]) returning id`,
        [team.accountId],
      );
      // Every API call stamps last_used_at: that alone leaves no trace.
      await db.query(`update public.api_tokens set last_used_at = now() where id = $1`, [token.id]);
      await db.query(`delete from public.api_tokens where id = $1`, [token.id]);

      const events = await eventsSince(db, organization.id, before);
      expect(events.map(({ action, target }) => ({ action, target }))).toEqual([
        { action: 'domain.created', target: 'acme-audit.example' },
        { action: 'domain.updated', target: 'acme-audit.example' },
        { action: 'api_token.created', target: 'CI deploys' },
        { action: 'api_token.deleted', target: 'CI deploys' },
      ]);
      for (const event of events) {
        for (const values of [event.old_values, event.new_values]) {
          expect(values ?? {}).not.toHaveProperty('token_hash');
          expect(values ?? {}).not.toHaveProperty('verification_token');
          expect(values ?? {}).not.toHaveProperty('last_used_at');
        }
      }
      expect(events[1]?.old_values).toMatchObject({ for_all_teams: true });
      expect(events[1]?.new_values).toMatchObject({ for_all_teams: false });
    }));

  it("records the organization's subscription, and nothing for a personal account's", () =>
    withRollback(pool, async (db) => {
      const { organization, stranger } = await createCast(db);
      const plan = await createPlan(db, { features: ['support_teams'] });
      const before = await lastEventId(db);
      await subscribe(db, { accountId: organization.accountId, plan });
      await subscribe(db, { accountId: stranger.personalAccountId, plan });
      const events = await eventsSince(db, organization.id, before);
      expect(events.map((event) => [event.action, event.target])).toEqual([
        ['subscription.created', plan.name],
      ]);
      const { rows } = await db.query(`select 1 from public.audit_events where id > $1`, [before]);
      expect(rows).toHaveLength(1);
    }));

  it('records link births and state changes in the organization, per statement, with the IP', () =>
    withRollback(pool, async (db) => {
      const { organization, owner, member, team } = await createCast(db);
      const domain = await createDomain(db);
      const before = await lastEventId(db);
      const teamLink = await createLink(db, {
        accountId: team.accountId,
        createdBy: member.id,
        domainId: domain.id,
        organizationId: organization.id,
        alias: 'spring',
      });
      // A personal link outside the organization: not the organization's business.
      await createLink(db, {
        accountId: owner.personalAccountId,
        createdBy: owner.id,
        domainId: domain.id,
      });
      // As the API would run it for the member (who changes link states through the link RPCs;
      // their rules are tested with them): the trigger reads the caller and address from the
      // request, whatever statement made the change.
      await db.query(
        `select set_config('request.jwt.claims', $1, true), set_config('request.headers', $2, true)`,
        [
          JSON.stringify({ sub: member.id, role: 'authenticated' }),
          JSON.stringify({ 'x-real-ip': '203.0.113.7', 'x-forwarded-for': '203.0.113.7' }),
        ],
      );
      await db.query(`update public.aliases set status = 'archived' where id = $1`, [teamLink.id]);
      await db.query(`update public.aliases set status = 'active' where id = $1`, [teamLink.id]);
      // A change that leaves the status alone is not a state change.
      await db.query(`update public.aliases set description = 'Spring sale' where id = $1`, [
        teamLink.id,
      ]);
      await db.query(`select set_config('request.jwt.claims', '', true)`);
      const { rows } = await db.query<{
        action: string;
        target: string;
        actor_id: string | null;
        ip: string | null;
      }>(
        `select action, target, actor_id, host(ip) as ip from public.audit_events
         where organization_id = $1 and id > $2 order by id`,
        [organization.id, before],
      );
      expect(rows).toEqual([
        { action: 'link.created', target: `${domain.domain}/spring`, actor_id: null, ip: null },
        {
          action: 'link.archived',
          target: `${domain.domain}/spring`,
          actor_id: member.id,
          ip: '203.0.113.7',
        },
        {
          action: 'link.restored',
          target: `${domain.domain}/spring`,
          actor_id: member.id,
          ip: '203.0.113.7',
        },
      ]);
    }));

  it('keeps a malformed address header out without refusing the change', () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      await asActor(db, owner.id, async (as) => {
        await as.query(`select set_config('request.headers', '{"x-real-ip": "not an ip"}', true)`);
        await as.query(`update public.organizations set name = 'Still renamed' where id = $1`, [
          organization.id,
        ]);
      });
      const row = await one<{ ip: string | null; target: string }>(
        db,
        `select ip::text, target from public.audit_events
         where organization_id = $1 order by id desc limit 1`,
        [organization.id],
      );
      expect(row).toEqual({ ip: null, target: 'Still renamed' });
    }));
});

describe('audit trail: the audit page reads it', () => {
  const trail = `select action, actor_email, target from public.organization_audit_trail($1)`;

  async function renamedTwice(db: Parameters<Parameters<typeof withRollback>[1]>[0], cast: Cast) {
    for (const name of ['First name', 'Second name']) {
      await queryAs(db, cast.owner.id, `update public.organizations set name = $2 where id = $1`, [
        cast.organization.id,
        name,
      ]);
    }
  }

  it('answers owners, holders of audit and staff; refuses everyone else', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['audit'] });
      await renamedTwice(db, cast);
      for (const reader of [cast.owner, cast.orgUser, cast.staff]) {
        const { rows } = await queryAs(db, reader.id, trail, [cast.organization.id]);
        expect(rows[0]).toEqual({
          action: 'organization.updated',
          actor_email: cast.owner.email,
          target: 'Second name',
        });
      }
      for (const outsider of [
        cast.supervisor,
        cast.teamAdmin,
        cast.member,
        cast.viewer,
        cast.stranger,
      ]) {
        await expectCoded(
          queryAs(db, outsider.id, trail, [cast.organization.id]),
          'permission_denied',
        );
        await expectCoded(
          queryAs(db, outsider.id, `select public.organization_audit_filters($1)`, [
            cast.organization.id,
          ]),
          'permission_denied',
        );
      }
      await expect(queryAs(db, null, trail, [cast.organization.id])).rejects.toThrow();
    }));

  it('filters by actor, action and period, and pages by id', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['audit'] });
      await renamedTwice(db, cast);
      await queryAs(
        db,
        cast.teamAdmin.id,
        `update public.team_members set role = 'viewer' where team_id = $1 and user_id = $2`,
        [cast.team.id, cast.member.id],
      );
      const page = (args: unknown[]) =>
        queryAs<{ id: string; action: string }>(
          db,
          cast.orgUser.id,
          `select id, action from public.organization_audit_trail($1, $2, $3, $4, $5, $6, $7)`,
          args,
        );
      const org = cast.organization.id;
      const byAdmin = await page([org, cast.teamAdmin.id, null, null, null, null, 50]);
      expect(byAdmin.rows.map((row) => row.action)).toEqual(['team_member.updated']);
      const renames = await page([org, null, 'organization.updated', null, null, null, 50]);
      expect(renames.rows).toHaveLength(2);
      const firstOnly = await page([org, null, 'organization.updated', null, null, null, 1]);
      const next = await page([
        org,
        null,
        'organization.updated',
        null,
        null,
        firstOnly.rows[0]?.id,
        1,
      ]);
      expect(next.rows).toHaveLength(1);
      expect(next.rows[0]?.id).not.toBe(firstOnly.rows[0]?.id);
      const future = await page([
        org,
        null,
        null,
        new Date(Date.now() + 3_600_000),
        null,
        null,
        50,
      ]);
      expect(future.rows).toEqual([]);
      const { rows: filters } = await queryAs<{
        filters: { actors: { email: string }[]; actions: string[] };
      }>(db, cast.orgUser.id, `select public.organization_audit_filters($1) as filters`, [org]);
      expect(filters[0]?.filters.actors.map((actor) => actor.email).sort()).toEqual(
        [cast.owner.email, cast.teamAdmin.email].sort(),
      );
      expect(filters[0]?.filters.actions).toContain('team_member.updated');
    }));
});

describe('audit trail: retention by plan', () => {
  it('deletes what the plan no longer keeps; a plan without the option keeps everything', () =>
    withRollback(pool, async (db) => {
      const kept = await createCast(db);
      const pruned = await createCast(db);
      const plan = await createPlan(db, { options: { audit_retention: 'P30D' } });
      await subscribe(db, { accountId: pruned.organization.accountId, plan });
      await subscribe(db, { accountId: kept.organization.accountId, plan: await createPlan(db) });
      await db.query(
        `update public.audit_events set created_at = now() - interval '40 days'
         where organization_id = any ($1)`,
        [[kept.organization.id, pruned.organization.id]],
      );
      await db.query(`update public.organizations set name = 'Fresh' where id = $1`, [
        pruned.organization.id,
      ]);
      await db.query(`select app.prune_audit_events()`);
      const count = async (organizationId: string) =>
        (
          await one<{ n: number }>(
            db,
            `select count(*)::int as n from public.audit_events where organization_id = $1`,
            [organizationId],
          )
        ).n;
      expect(await count(pruned.organization.id)).toBe(1);
      expect(await count(kept.organization.id)).toBeGreaterThan(5);
    }));

  it('takes audit_retention as an ISO 8601 duration only', () =>
    withRollback(pool, async (db) => {
      const { rows } = await db.query<{ ok: boolean }>(
        `select app.valid_plan_options(o) as ok from unnest($1::jsonb[]) as o`,
        [
          [
            '{"audit_retention": "P1Y"}',
            '{"audit_retention": "a year"}',
            '{"audit_retention": 365}',
          ],
        ],
      );
      expect(rows.map((row) => row.ok)).toEqual([true, false, false]);
    }));

  it('is scheduled daily by Supabase Cron', () =>
    withRollback(pool, async (db) => {
      const { rows } = await db.query(
        `select schedule, command from cron.job where jobname = 'audit-retention'`,
      );
      expect(rows).toEqual([
        { schedule: '17 3 * * *', command: 'select app.prune_audit_events()' },
      ]);
    }));
});
