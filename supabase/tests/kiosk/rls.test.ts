import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { all, one, useDatabase } from '../support/index.ts';
import { rest, rpc, SEEDED, tokenFor } from './api.ts';

/**
 * The kiosk is staff-only by row-level security, not by hiding screens: through PostgREST a
 * signed-in non-staff user gets no row of any kiosk relation, an anonymous caller is refused,
 * and staff read them. The lists below are checked against the catalog, so a new staff-only
 * table or kiosk view cannot be left out of these tests.
 */
const pool = useDatabase();

/** Tables whose every policy for API roles is a staff check. */
const STAFF_ONLY_TABLES = [
  'access_invitations',
  'banned_domains',
  'coupons',
  'dns_zones',
  'ip_blocks',
  'kiosk_audit_log',
  'password_dictionary',
  'tld_prices',
  'webhook_events',
];

/** The views the kiosk's screens read. */
const KIOSK_VIEWS = [
  'kiosk_aliases',
  'kiosk_api_tokens',
  'kiosk_domains',
  'kiosk_long_urls',
  'kiosk_organization_users',
  'kiosk_organizations',
  'kiosk_survey_results',
  'kiosk_team_members',
  'kiosk_teams',
  'kiosk_users',
  'kiosk_webhook_endpoints',
];

const KIOSK_RELATIONS = [...STAFF_ONLY_TABLES, ...KIOSK_VIEWS];

/** Staff-only RPCs with arguments that would succeed for staff. */
const KIOSK_RPCS: [string, Record<string, unknown>][] = [
  ['kiosk_system_stats', { p_days: 7 }],
  ['kiosk_link_totals', {}],
  ['kiosk_create_access_invitation', { p_email: 'never-created@kiosk.test' }],
];

let staff: string;
let nonStaff: string;
let auditRowId: number;
let webhookEndpointId: string;

beforeAll(async () => {
  staff = await tokenFor(SEEDED.staff);
  nonStaff = await tokenFor(SEEDED.free);
  // The seed has a row in every kiosk relation except the audit log; give it one, so that "no
  // rows for non-staff" is never true only because the relation is empty.
  auditRowId = (
    await one<{ id: number }>(
      pool,
      `insert into public.kiosk_audit_log (actor_id, action, subject_user_id, details)
       values ($1, 'user.banned', $2, '{"test": "kiosk rls"}') returning id`,
      [SEEDED.staff, SEEDED.free],
    )
  ).id;
  // Nor has it a webhook endpoint for kiosk_webhook_endpoints to show.
  webhookEndpointId = (
    await one<{ id: string }>(
      pool,
      `insert into public.webhook_endpoints (account_id, url, events)
       select personal_account_id, 'https://hooks.example.com/kiosk-rls', array['link.created']
       from public.profiles where id = $1
       returning id`,
      [SEEDED.free],
    )
  ).id;
});

afterAll(async () => {
  await pool.query('delete from public.kiosk_audit_log where id = $1', [auditRowId]);
  await pool.query('delete from public.webhook_endpoints where id = $1', [webhookEndpointId]);
});

describe('the kiosk relation lists', () => {
  it('name every table that only staff may read', async () => {
    const rows = await all<{ table: string }>(
      pool,
      `select tablename as table
       from pg_policies
       where schemaname = 'public' and roles && '{authenticated,anon,public}'::name[]
       group by tablename
       having bool_and(coalesce(qual, '') ~ 'app\\.is_staff\\(\\)'
         or coalesce(with_check, '') ~ 'app\\.is_staff\\(\\)')
       order by tablename`,
    );
    expect(rows.map((row) => row.table)).toEqual(STAFF_ONLY_TABLES);
  });

  it('name every kiosk view', async () => {
    const rows = await all<{ view: string }>(
      pool,
      `select c.relname as view from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'v' and c.relname like 'kiosk\\_%'
       order by c.relname`,
    );
    expect(rows.map((row) => row.view)).toEqual(KIOSK_VIEWS);
  });

  it('filter every kiosk view on the caller being staff', async () => {
    const rows = await all<{ view: string; definition: string }>(
      pool,
      `select viewname as view, definition from pg_views
       where schemaname = 'public' and viewname = any ($1)`,
      [KIOSK_VIEWS],
    );
    const unfiltered = rows.filter(
      (row) => !/WHERE \( SELECT app\.is_staff\(\)/.test(row.definition),
    );
    expect(unfiltered.map((row) => row.view)).toEqual([]);
  });
});

describe.each(KIOSK_RELATIONS)('%s through PostgREST', (relation) => {
  it('gives a signed-in non-staff user no rows', async () => {
    expect(await rest(`${relation}?select=*&limit=5`, { token: nonStaff })).toEqual({
      status: 200,
      body: [],
    });
  });

  it('refuses an anonymous caller', async () => {
    const answer = await rest(`${relation}?select=*&limit=5`);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: '42501' });
  });

  it('gives staff its rows', async () => {
    const answer = await rest(`${relation}?select=*&limit=5`, { token: staff });
    expect(answer.status).toBe(200);
    expect((answer.body as unknown[]).length).toBeGreaterThan(0);
  });
});

describe('kiosk writes through PostgREST', () => {
  it.each(STAFF_ONLY_TABLES.filter((t) => t !== 'webhook_events' && t !== 'kiosk_audit_log'))(
    '%s: a non-staff user cannot insert',
    async (table) => {
      const answer = await rest(table, { token: nonStaff, method: 'POST', body: {} });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: '42501' });
    },
  );

  it('no API role may write a kiosk view, not even staff (writes go to the tables)', async () => {
    const writable = await all<{ grant: string }>(
      pool,
      `select v.view || ' ' || r.role || ' ' || p.privilege as grant
       from unnest($1::text[]) as v(view)
       cross join unnest(array['anon', 'authenticated']) as r(role)
       cross join unnest(array['INSERT', 'UPDATE', 'DELETE']) as p(privilege)
       where has_table_privilege(r.role, 'public.' || v.view, p.privilege)`,
      [KIOSK_VIEWS],
    );
    expect(writable).toEqual([]);
    // The one view over a single table would otherwise be auto-updatable.
    const answer = await rest('kiosk_survey_results?id=eq.00000000-0000-4000-8000-000000000000', {
      token: staff,
      method: 'PATCH',
      body: { prompt: 'changed' },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: '42501' });
  });

  it('the audit log is written by the kiosk functions only', async () => {
    const answer = await rest('kiosk_audit_log', {
      token: staff,
      method: 'POST',
      body: { action: 'user.banned', details: {} },
    });
    expect(answer.status).toBe(403);
  });
});

describe('kiosk RPCs', () => {
  it('is_staff answers true for staff and false for everyone else signed in', async () => {
    expect(await rpc('is_staff', {}, staff)).toEqual({ status: 200, body: true });
    expect(await rpc('is_staff', {}, nonStaff)).toEqual({ status: 200, body: false });
    expect((await rpc('is_staff', {})).status).toBe(401);
  });

  it.each(KIOSK_RPCS)('%s refuses non-staff with permission_denied', async (name, args) => {
    expect(await rpc(name, args, nonStaff)).toEqual({
      status: 403,
      body: {
        code: 'PT403',
        message: 'permission_denied',
        details: 'Permission denied',
        hint: 'form',
      },
    });
    expect((await rpc(name, args)).status).toBe(401);
  });
});

describe('tables the kiosk shares with the portal', () => {
  it('announcements: drafts are for staff; signed-in users read published ones only', async () => {
    const staffSees = (await rest('announcements?select=title,published_at', { token: staff }))
      .body as { title: string; published_at: string | null }[];
    const userSees = (await rest('announcements?select=title,published_at', { token: nonStaff }))
      .body as { title: string; published_at: string | null }[];
    expect(staffSees.some((row) => row.published_at === null)).toBe(true);
    expect(userSees.length).toBeGreaterThan(0);
    expect(userSees.every((row) => row.published_at !== null)).toBe(true);
    const publish = await rest('announcements', {
      token: nonStaff,
      method: 'POST',
      body: { title: 'Not staff', body: 'x', published_at: new Date().toISOString() },
    });
    expect(publish.status).toBe(403);
  });

  it('surveys: signed-in users read active ones only and cannot change them', async () => {
    const before = await one<{ id: string }>(
      pool,
      `insert into public.surveys (name, title, is_active) values ($1, 'Inactive', false)
       returning id`,
      [`kiosk-rls-${Date.now()}`],
    );
    try {
      const userSees = (await rest(`surveys?select=id&id=eq.${before.id}`, { token: nonStaff }))
        .body;
      const staffSees = (await rest(`surveys?select=id&id=eq.${before.id}`, { token: staff })).body;
      expect(userSees).toEqual([]);
      expect(staffSees).toEqual([{ id: before.id }]);
      const activate = await rest(`surveys?id=eq.${before.id}`, {
        token: nonStaff,
        method: 'PATCH',
        body: { is_active: true },
      });
      expect(activate).toEqual({ status: 200, body: [] });
    } finally {
      await pool.query('delete from public.surveys where id = $1', [before.id]);
    }
  });
});
