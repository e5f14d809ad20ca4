import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createDomain, createLink } from '../links/fixtures.ts';
import {
  addOrganizationUser,
  addTeamMember,
  createCast,
  createPlan,
  createUser,
  createUsers,
  expectCoded,
  expectDatabaseError,
  expectProtectedColumn,
  expectRefused,
  one,
  queryAs,
  subscribe,
  uniqueSuffix,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/**
 * What each kiosk screen reads and does, as staff would through the API (asActor applies the
 * same role, claims and RLS as PostgREST), inside transactions that are rolled back.
 */
const pool = useDatabase();

/** A kiosk RPC error: the contract's shape with the kiosk's own catalogue. */
async function expectKioskError(
  promise: Promise<unknown>,
  expected: { status: number; code: string; detail: string; hint: string },
) {
  const error = await expectDatabaseError(promise);
  expect({
    code: error.code,
    message: error.message,
    detail: error.detail,
    hint: error.hint,
  }).toEqual({
    code: `PT${expected.status}`,
    message: expected.code,
    detail: expected.detail,
    hint: expected.hint,
  });
}

describe('users screen (kiosk_users)', () => {
  it('shows staff a user with plan, subscription state, teams, organizations and links', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const plan = await createPlan(db);
      await subscribe(db, {
        accountId: cast.member.personalAccountId,
        plan,
        trialEndsAt: new Date(Date.now() + 3 * 86_400_000),
      });
      await db.query(
        `update auth.users set banned_until = now() + interval '1 day' where id = $1`,
        [cast.member.id],
      );
      const domain = await createDomain(db);
      await createLink(db, {
        accountId: cast.member.personalAccountId,
        createdBy: cast.member.id,
        domainId: domain.id,
      });
      await createLink(db, {
        accountId: cast.member.personalAccountId,
        createdBy: cast.member.id,
        domainId: domain.id,
        status: 'deleted',
      });
      const { rows } = await queryAs(
        db,
        cast.staff.id,
        `select email, plan, subscription_state, is_banned, links_count, teams, organizations,
           email_confirmed_at is not null as confirmed
         from public.kiosk_users where id = $1`,
        [cast.member.id],
      );
      expect(rows).toEqual([
        {
          email: cast.member.email,
          plan: plan.name,
          subscription_state: 'trial',
          is_banned: true,
          links_count: 1,
          teams: [
            expect.objectContaining({ id: cast.team.id, role: 'member', slug: cast.team.slug }),
          ],
          organizations: [],
          confirmed: true,
        },
      ]);
      const owner = await queryAs(
        db,
        cast.staff.id,
        `select organizations, plan, subscription_state from public.kiosk_users where id = $1`,
        [cast.owner.id],
      );
      expect(owner.rows).toEqual([
        {
          organizations: [expect.objectContaining({ id: cast.organization.id, role: 'owner' })],
          plan: 'free',
          subscription_state: 'free',
        },
      ]);
    }));

  it('lists organization users with their role name, and finds users by e-mail', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['audit'] });
      const found = await queryAs(
        db,
        cast.staff.id,
        `select id, organizations -> 0 ->> 'role' as role from public.kiosk_users
         where email ilike $1`,
        [`%${cast.orgUser.email.split('@')[0]}%`],
      );
      expect(found.rows).toEqual([{ id: cast.orgUser.id, role: 'Limited' }]);
    }));

  it('lets staff switch the status flags; users cannot switch their own', () =>
    withRollback(pool, async (db) => {
      const { staff, stranger } = await createCast(db);
      const updated = await queryAs(
        db,
        staff.id,
        `update public.profiles set status = 4 | 16 where id = $1 returning status`,
        [stranger.id],
      );
      expect(updated.rows).toEqual([{ status: 20 }]);
      const view = await queryAs(
        db,
        staff.id,
        `select no_affiliate, no_mailings, hide_invoices from public.kiosk_users where id = $1`,
        [stranger.id],
      );
      expect(view.rows).toEqual([{ no_affiliate: true, no_mailings: false, hide_invoices: true }]);
      await expectProtectedColumn(
        queryAs(db, stranger.id, `update public.profiles set status = 0 where id = $1`, [
          stranger.id,
        ]),
        'status',
      );
    }));

  it('hides auth.users facts from non-staff: no rows, and no way around the view', () =>
    withRollback(pool, async (db) => {
      const { member } = await createCast(db);
      const seen = await queryAs(
        db,
        member.id,
        `select count(*)::int as n from public.kiosk_users where id = $1`,
        [member.id],
      );
      expect(seen.rows).toEqual([{ n: 0 }]);
      await expectRefused(queryAs(db, member.id, `select email from auth.users limit 1`));
    }));
});

describe('aliases and long-urls screens', () => {
  it('find links by alias, domain, URL and owner, with their clicks', () =>
    withRollback(pool, async (db) => {
      const { staff, member } = await createCast(db);
      const domain = await createDomain(db);
      const link = await createLink(db, {
        accountId: member.personalAccountId,
        createdBy: member.id,
        domainId: domain.id,
        url: `https://kiosk-${uniqueSuffix()}.example.org/page`,
      });
      await db.query(
        `insert into public.click_stats_hourly (alias_id, hour, account_id, clicks, bot_clicks, qr_clicks)
         values ($1, date_trunc('hour', now()), $2, 7, 1, 0),
                ($1, date_trunc('hour', now()) - interval '1 hour', $2, 5, 0, 0)`,
        [link.id, member.personalAccountId],
      );
      for (const [column, value] of [
        ['alias', link.alias],
        ['domain', domain.domain],
        ['url', '%kiosk-%'],
        ['owner_email', member.email],
      ] as const) {
        const { rows } = await queryAs(
          db,
          staff.id,
          `select id, clicks from public.kiosk_aliases where ${column} ilike $1 and domain = $2`,
          [value, domain.domain],
        );
        expect(rows, column).toEqual([{ id: link.id, clicks: '12' }]);
      }
      const longUrl = await queryAs(
        db,
        staff.id,
        `select aliases_count, clicks, owner_email from public.kiosk_long_urls where id = $1`,
        [link.longUrlId],
      );
      expect(longUrl.rows).toEqual([{ aliases_count: 1, clicks: '12', owner_email: member.email }]);
    }));

  it('lets staff archive, terminate for abuse and restore a link, and terminate a destination', () =>
    withRollback(pool, async (db) => {
      const { staff, member } = await createCast(db);
      const domain = await createDomain(db);
      const link = await createLink(db, {
        accountId: member.personalAccountId,
        createdBy: member.id,
        domainId: domain.id,
      });
      for (const status of ['archived', 'terminated', 'active']) {
        const { rows } = await queryAs(
          db,
          staff.id,
          `update public.aliases set status = $2 where id = $1 returning status`,
          [link.id, status],
        );
        expect(rows).toEqual([{ status }]);
      }
      const terminated = await queryAs(
        db,
        staff.id,
        `update public.long_urls set status = 'terminated' where id = $1 returning status`,
        [link.longUrlId],
      );
      expect(terminated.rows).toEqual([{ status: 'terminated' }]);
      // The owner cannot undo a termination behind the kiosk's back.
      const undone = await queryAs(
        db,
        member.id,
        `update public.long_urls set status = 'active' where id = $1`,
        [link.longUrlId],
      );
      expect(undone.rowCount).toBe(0);
    }));
});

describe('banned_domains', () => {
  it('refuses new links to a banned domain and its subdomains, and marks existing ones', () =>
    withRollback(pool, async (db) => {
      const { staff, member } = await createCast(db);
      const banned = `ban-${uniqueSuffix()}.example.net`;
      const domain = await createDomain(db);
      const existing = await createLink(db, {
        accountId: member.personalAccountId,
        createdBy: member.id,
        domainId: domain.id,
        url: `https://www.${banned}/offer`,
      });
      const created = await queryAs(
        db,
        member.id,
        `select public.create_link(p_url => $1, p_domain => $2) as link`,
        [`https://${banned}/before`, domain.domain],
      );
      expect(created.rowCount).toBe(1);

      await queryAs(
        db,
        staff.id,
        `insert into public.banned_domains (domain, reason) values ($1, 'abuse')`,
        [banned],
      );
      for (const url of [`https://${banned}/after`, `https://cdn.${banned}/x`]) {
        await expectCoded(
          queryAs(db, member.id, `select public.create_link(p_url => $1, p_domain => $2)`, [
            url,
            domain.domain,
          ]),
          'url_banned',
        );
      }
      const marked = await queryAs(
        db,
        staff.id,
        `select host_banned from public.kiosk_aliases where id = $1`,
        [existing.id],
      );
      expect(marked.rows).toEqual([{ host_banned: true }]);
    }));

  it('tells every redirect cache to forget what it loaded when a ban is added or lifted', async () => {
    const env = inject('stackEnv');
    const listener = new pg.Client({ connectionString: env.DB_URL });
    await listener.connect();
    const received: string[] = [];
    listener.on('notification', (message) => {
      if (message.channel === 'link_cache') received.push(message.payload ?? '');
    });
    const banned = `notify-${uniqueSuffix()}.example.net`;
    try {
      await listener.query('listen link_cache');
      await pool.query(`insert into public.banned_domains (domain) values ($1)`, [banned]);
      await pool.query(`delete from public.banned_domains where domain = $1`, [banned]);
      await expect.poll(() => received.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
      for (const payload of received.slice(0, 2)) {
        const change = JSON.parse(payload) as Record<string, unknown>;
        // No key: "anything may have changed", so each cache drops everything.
        expect(change).not.toHaveProperty('key');
        expect(String(change.epoch)).toMatch(/^\d+$/);
      }
    } finally {
      await pool.query(`delete from public.banned_domains where domain = $1`, [banned]);
      await listener.end();
    }
  });
});

describe('domains screen', () => {
  it('lets staff set the guest, verification, subscriber and blocked flags; owners cannot', () =>
    withRollback(pool, async (db) => {
      const { staff, owner } = await createCast(db);
      const branded = await createDomain(db, {
        kind: 'branded',
        accountId: owner.personalAccountId,
        verified: false,
      });
      const common = await createDomain(db);
      const flags = await queryAs(
        db,
        staff.id,
        `update public.domains set allow_for_guests = true, subscribed_only = true,
           require_email_verification = true, is_blocked = true
         where id = $1 returning allow_for_guests, subscribed_only, is_blocked`,
        [common.id],
      );
      expect(flags.rows).toEqual([
        { allow_for_guests: true, subscribed_only: true, is_blocked: true },
      ]);
      const verified = await queryAs(
        db,
        staff.id,
        `update public.domains set verification_status = 'verified', verified_at = now()
         where id = $1 returning verification_status`,
        [branded.id],
      );
      expect(verified.rows).toEqual([{ verification_status: 'verified' }]);
      const listed = await queryAs(
        db,
        staff.id,
        `select domain, account_name, links_count from public.kiosk_domains where id = $1`,
        [branded.id],
      );
      expect(listed.rows).toEqual([
        { domain: branded.domain, account_name: expect.any(String), links_count: '0' },
      ]);
      // Moderation flags are staff's: the column guard (or, without the plan's domain
      // features, the update policy) refuses the owner.
      const refused = await expectDatabaseError(
        queryAs(db, owner.id, `update public.domains set is_blocked = false where id = $1`, [
          branded.id,
        ]),
      );
      expect(['PT403', '42501']).toContain(refused.code);
    }));
});

describe('ips, password_dictionary, tld_overprice', () => {
  it('keeps addresses and ranges staff block', () =>
    withRollback(pool, async (db) => {
      const { staff } = await createCast(db);
      const { rows } = await queryAs(
        db,
        staff.id,
        `insert into public.ip_blocks (range, reason) values ('192.0.2.77', 'spam'), ('2001:db8:77::/48', 'range')
         returning range::text`,
      );
      expect(rows).toEqual([{ range: '192.0.2.77/32' }, { range: '2001:db8:77::/48' }]);
      const blocked = await one(
        db,
        `select app.is_ip_blocked('192.0.2.77') as single, app.is_ip_blocked('2001:db8:77:1::9') as ranged,
           app.is_ip_blocked('192.0.2.78') as other`,
      );
      expect(blocked).toEqual({ single: true, ranged: true, other: false });
    }));

  it('lets the auth service (and only staff over the API) read the password dictionary', () =>
    withRollback(pool, async (db) => {
      const { staff, member } = await createCast(db);
      const word = `kioskword${uniqueSuffix()}`;
      await queryAs(db, staff.id, `insert into public.password_dictionary (word) values ($1)`, [
        word,
      ]);
      await db.query('savepoint auth_service');
      await db.query('set local role supabase_auth_admin');
      const seen = await one(
        db,
        `select exists (select 1 from public.password_dictionary where word = $1) as found`,
        [word],
      );
      await db.query('rollback to savepoint auth_service');
      expect(seen).toEqual({ found: true });
      const hidden = await queryAs(
        db,
        member.id,
        `select count(*)::int as n from public.password_dictionary`,
      );
      expect(hidden.rows).toEqual([{ n: 0 }]);
    }));

  it('recomputes a TLD price from its cost and overprice', () =>
    withRollback(pool, async (db) => {
      const { staff } = await createCast(db);
      const { rows } = await queryAs(
        db,
        staff.id,
        `update public.tld_prices set overprice_amount = 500 where tld = 'com'
         returning cost_amount, price_amount`,
      );
      expect(rows).toEqual([{ cost_amount: '1099', price_amount: '1599' }]);
    }));
});

describe('surveys/{survey}', () => {
  it('counts answers per choice and shows the latest text answers', () =>
    withRollback(pool, async (db) => {
      const { staff } = await createCast(db);
      const survey = await one<{ id: string }>(
        db,
        `insert into public.surveys (name, title, is_active) values ($1, 'Kiosk test', true)
         returning id`,
        [`kiosk-${uniqueSuffix()}`],
      );
      const questions = await db.query<{ id: string; kind: string }>(
        `insert into public.survey_questions (survey_id, position, prompt, kind, choices)
         values ($1, 0, 'Use?', 'single', '{Work,Fun}'),
                ($1, 1, 'Features?', 'multiple', '{API,Tags,QR}'),
                ($1, 2, 'Else?', 'text', '{}')
         returning id, kind`,
        [survey.id],
      );
      const [single, multiple, text] = questions.rows.map((q) => q.id);
      const [ada, bob, cy] = await createUsers(db, [{}, {}, {}]);
      const answers: [string, string, unknown][] = [
        [ada.id, single!, ['Work']],
        [ada.id, multiple!, ['API', 'Tags']],
        [ada.id, text!, 'More charts'],
        [bob.id, single!, ['Work']],
        [bob.id, multiple!, ['API']],
        [cy.id, single!, ['Fun']],
      ];
      for (const [userId, questionId, answer] of answers) {
        await db.query(
          `insert into public.survey_answers (survey_id, question_id, user_id, answer)
           values ($1, $2, $3, $4)`,
          [survey.id, questionId, userId, JSON.stringify(answer)],
        );
      }
      const { rows } = await queryAs(
        db,
        staff.id,
        `select kind, answers_count, choice_counts, latest_text_answers
         from public.kiosk_survey_results where survey_id = $1 order by position`,
        [survey.id],
      );
      expect(rows).toEqual([
        {
          kind: 'single',
          answers_count: 3,
          choice_counts: { Work: 2, Fun: 1 },
          latest_text_answers: [],
        },
        {
          kind: 'multiple',
          answers_count: 2,
          choice_counts: { API: 2, Tags: 1, QR: 0 },
          latest_text_answers: [],
        },
        { kind: 'text', answers_count: 1, choice_counts: {}, latest_text_answers: ['More charts'] },
      ]);
    }));
});

describe('stats RPCs', () => {
  it('counts a domain’s links and clicks per day over the period', () =>
    withRollback(pool, async (db) => {
      const { staff, member } = await createCast(db);
      const domain = await createDomain(db);
      const today = await createLink(db, {
        accountId: member.personalAccountId,
        createdBy: member.id,
        domainId: domain.id,
      });
      await createLink(db, {
        accountId: member.personalAccountId,
        createdBy: member.id,
        domainId: domain.id,
        createdAt: new Date(Date.now() - 2 * 86_400_000),
      });
      await createLink(db, {
        accountId: member.personalAccountId,
        createdBy: member.id,
        domainId: domain.id,
        createdAt: new Date(Date.now() - 40 * 86_400_000),
      });
      await db.query(
        `insert into public.click_stats_hourly (alias_id, hour, account_id, clicks, bot_clicks, qr_clicks)
         values ($1, date_trunc('hour', now()), $2, 9, 0, 0)`,
        [today.id, member.personalAccountId],
      );
      const { rows } = await queryAs<{ day: Date; links: string; clicks: string }>(
        db,
        staff.id,
        `select day, links, clicks from public.kiosk_system_stats(p_days => 7, p_domain => $1)`,
        [domain.domain],
      );
      expect(rows).toHaveLength(7);
      expect(rows.reduce((sum, row) => sum + Number(row.links), 0)).toBe(2);
      expect(rows.at(-1)).toMatchObject({ links: '1', clicks: '9' });
    }));

  it('refuses a period out of range and an unknown domain', () =>
    withRollback(pool, async (db) => {
      const { staff } = await createCast(db);
      await expectKioskError(
        queryAs(db, staff.id, `select * from public.kiosk_system_stats(p_days => 0)`),
        {
          status: 422,
          code: 'period_invalid',
          detail: 'The period must be between 1 and 366 days.',
          hint: 'days',
        },
      );
      await expectCoded(
        queryAs(
          db,
          staff.id,
          `select * from public.kiosk_system_stats(p_domain => 'nope.invalid')`,
        ),
        'domain_not_found',
      );
    }));

  it('gives the totals and the links per status and per domain', () =>
    withRollback(pool, async (db) => {
      const { staff } = await createCast(db);
      const counted = await one<{ archived: string }>(
        db,
        `select count(*) filter (where status = 'archived') as archived from public.aliases`,
      );
      const { rows } = await queryAs<{ totals: Record<string, unknown> }>(
        db,
        staff.id,
        `select public.kiosk_link_totals(p_top => 3) as totals`,
      );
      const result = rows[0]!.totals as {
        by_status: Record<string, number>;
        by_domain: unknown[];
        links: number;
      };
      expect(result.by_status.archived ?? 0).toBe(Number(counted.archived));
      expect(result.by_domain.length).toBeLessThanOrEqual(3);
      expect(result.links).toBeGreaterThan(0);
    }));
});

describe('access-invitations', () => {
  it('creates an invitation with a token shown once and stored hashed, audited', () =>
    withRollback(pool, async (db) => {
      const { staff } = await createCast(db);
      const email = `Invitee-${uniqueSuffix()}@Example.com`;
      const { rows } = await queryAs<{ invitation: { id: string; email: string; token: string } }>(
        db,
        staff.id,
        `select public.kiosk_create_access_invitation(p_email => $1, p_note => 'beta') as invitation`,
        [email],
      );
      const invitation = rows[0]!.invitation;
      expect(invitation.email).toBe(email.toLowerCase());
      expect(invitation.token).toMatch(/^[0-9a-f]{48}$/);
      const stored = await one(
        db,
        `select token_hash = encode(extensions.digest($2, 'sha256'), 'hex') as hashed, invited_by
         from public.access_invitations where id = $1`,
        [invitation.id, invitation.token],
      );
      expect(stored).toEqual({ hashed: true, invited_by: staff.id });
      const audit = await one(
        db,
        `select actor_id, details ->> 'email' as email from public.kiosk_audit_log
         where action = 'access_invitation.created' and details ->> 'invitation_id' = $1`,
        [invitation.id],
      );
      expect(audit).toEqual({ actor_id: staff.id, email: email.toLowerCase() });
      await expectKioskError(
        queryAs(db, staff.id, `select public.kiosk_create_access_invitation(p_email => $1)`, [
          email,
        ]),
        {
          status: 409,
          code: 'already_invited',
          detail: 'That address has already been invited.',
          hint: 'email',
        },
      );
    }));

  it('refuses an address that is not one, and an expiry in the past', () =>
    withRollback(pool, async (db) => {
      const { staff } = await createCast(db);
      await expectKioskError(
        queryAs(db, staff.id, `select public.kiosk_create_access_invitation(p_email => 'nope')`),
        {
          status: 422,
          code: 'email_invalid',
          detail: 'The email must be a valid email address.',
          hint: 'email',
        },
      );
      await expectKioskError(
        queryAs(
          db,
          staff.id,
          `select public.kiosk_create_access_invitation(p_email => 'a@b.example', p_expires_at => now() - interval '1 minute')`,
        ),
        {
          status: 422,
          code: 'expiry_in_past',
          detail: 'The expiry must be in the future.',
          hint: 'expires_at',
        },
      );
    }));
});

describe('organization membership shown on the users screen', () => {
  it('lists a user in several teams and organizations', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const user = await createUser(db);
      await addTeamMember(db, { teamId: cast.team.id, userId: user.id, role: 'viewer' });
      await addOrganizationUser(db, {
        organizationId: cast.organization.id,
        userId: user.id,
        roleId: cast.supervisorRole.id,
      });
      const { rows } = await queryAs(
        db,
        cast.staff.id,
        `select teams -> 0 ->> 'role' as team_role, organizations -> 0 ->> 'role' as org_role
         from public.kiosk_users where id = $1`,
        [user.id],
      );
      expect(rows).toEqual([{ team_role: 'viewer', org_role: expect.any(String) }]);
    }));
});
