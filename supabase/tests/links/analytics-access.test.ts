import type pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { signToken } from '../../local/src/jwt.ts';
import {
  all,
  asActor,
  expectRefused,
  one,
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';
import {
  addClicks,
  ANALYTICS_FEATURES,
  createAnalyticsScene,
  expectAnalyticsError,
  type AnalyticsScene,
} from './analytics-fixtures.ts';
import { LINK_FEATURES } from './fixtures.ts';

/**
 * Who may read analytics, share them and download the click log, by actor; and what the plan
 * must allow. Analytics of a link follow who may read the link (its account's readers, the
 * supervisors of the organization it was made in, staff); an account's follow links.read on it.
 */
const pool = useDatabase();

type ActorName = Exclude<keyof Cast, 'organization' | 'team' | 'limitedRole' | 'supervisorRole'>;
const ACTORS: ActorName[] = [
  'owner',
  'orgUser',
  'supervisor',
  'teamAdmin',
  'member',
  'viewer',
  'stranger',
  'staff',
];

const linkAnalytics = (db: pg.ClientBase, actor: string | null, aliasId: string, period?: string) =>
  asActor(db, actor, (as) =>
    one<{ answer: { clicks: number } }>(
      as,
      period === undefined
        ? 'select public.link_analytics($1) as answer'
        : 'select public.link_analytics($1, $2) as answer',
      period === undefined ? [aliasId] : [aliasId, period],
    ),
  ).then((row) => row.answer);

async function withScene(run: (db: pg.PoolClient, scene: AnalyticsScene) => Promise<void>) {
  await withRollback(pool, async (db) => {
    const scene = await createAnalyticsScene(db);
    for (const link of Object.values(scene.links)) {
      await addClicks(db, link.id, [{ ago: '5 minutes', count: 3 }, { ago: '2 hours' }]);
    }
    // None of these hours is rolled up: the analytics read them raw.
    await db.query(
      `update app.click_rollup_state set rolled_until =
         date_bin('1 hour', now() - interval '2 days', timestamptz '2000-01-01 00:00:00+00')`,
    );
    await run(db, scene);
  });
}

describe('link_analytics by actor', () => {
  const readers: Record<keyof AnalyticsScene['links'], ActorName[]> = {
    team: ['owner', 'supervisor', 'teamAdmin', 'member', 'viewer', 'staff'],
    orgPersonal: ['owner', 'supervisor', 'member', 'staff'],
    guest: ['staff'],
    stranger: ['staff'],
  };
  for (const [linkName, allowed] of Object.entries(readers) as [
    keyof AnalyticsScene['links'],
    ActorName[],
  ][]) {
    it(`the ${linkName} link: ${allowed.join(', ')} read it; the others are told it does not exist`, () =>
      withScene(async (db, scene) => {
        const aliasId = scene.links[linkName].id;
        for (const actor of ACTORS) {
          const reading = linkAnalytics(db, scene.cast[actor].id, aliasId);
          if (allowed.includes(actor)) expect((await reading).clicks, actor).toBe(4);
          else if (linkName === 'stranger' && actor === 'stranger')
            await expectAnalyticsError(reading, 'analytics_not_allowed');
          else await expectAnalyticsError(reading, 'alias_not_found');
        }
        await expectRefused(linkAnalytics(db, null, aliasId));
      }));
  }

  it('a link that does not exist is not found', () =>
    withScene(async (db, scene) => {
      await expectAnalyticsError(
        linkAnalytics(db, scene.cast.owner.id, '00000000-0000-4000-8000-00000000dead'),
        'alias_not_found',
      );
    }));

  it('an unknown period is refused', () =>
    withScene(async (db, scene) => {
      await expectAnalyticsError(
        linkAnalytics(db, scene.cast.member.id, scene.links.team.id, 'last_2_day'),
        'analytics_period_invalid',
      );
    }));
});

describe('the plan decides', () => {
  it('without use_analytics nobody but staff reads analytics', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db, { features: LINK_FEATURES });
      await expectAnalyticsError(
        linkAnalytics(db, scene.cast.member.id, scene.links.team.id),
        'analytics_not_allowed',
      );
      expect((await linkAnalytics(db, scene.cast.staff.id, scene.links.team.id)).clicks).toBe(0);
    }));

  it('analytics_enabled false turns analytics off', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db, { options: { analytics_enabled: false } });
      await expectAnalyticsError(
        linkAnalytics(db, scene.cast.member.id, scene.links.team.id),
        'analytics_not_allowed',
      );
    }));

  it('periods longer than analytics_period are refused', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db, {
        options: { analytics_enabled: true, analytics_period: 'P7D' },
      });
      expect(
        (await linkAnalytics(db, scene.cast.member.id, scene.links.team.id, 'last_7_day')).clicks,
      ).toBe(0);
      await expectAnalyticsError(
        linkAnalytics(db, scene.cast.member.id, scene.links.team.id, 'last_30_day'),
        'analytics_period_not_allowed',
      );
    }));
});

describe('account_analytics by actor', () => {
  const accountAnalytics = (db: pg.ClientBase, actor: string | null, accountId: string) =>
    asActor(db, actor, (as) =>
      one<{ answer: { clicks: number; account_id: string } }>(
        as,
        'select public.account_analytics($1) as answer',
        [accountId],
      ),
    ).then((row) => row.answer);

  it('readers of the team read its totals; the others are refused', () =>
    withScene(async (db, scene) => {
      const readers: ActorName[] = [
        'owner',
        'supervisor',
        'teamAdmin',
        'member',
        'viewer',
        'staff',
      ];
      for (const actor of ACTORS) {
        const reading = accountAnalytics(db, scene.cast[actor].id, scene.cast.team.accountId);
        if (readers.includes(actor)) {
          expect(await reading, actor).toMatchObject({
            account_id: scene.cast.team.accountId,
            clicks: 4,
          });
        } else await expectAnalyticsError(reading, 'permission_denied');
      }
      await expectRefused(accountAnalytics(db, null, scene.cast.team.accountId));
    }));

  it('a free personal account has no analytics', () =>
    withScene(async (db, scene) => {
      await expectAnalyticsError(
        accountAnalytics(db, scene.cast.stranger.id, scene.cast.stranger.personalAccountId),
        'analytics_not_allowed',
      );
    }));
});

describe('public analytics', () => {
  const share = (db: pg.ClientBase, actor: string | null, aliasId: string) =>
    asActor(db, actor, (as) =>
      one<{ token: string }>(as, 'select public.share_link_analytics($1) as token', [aliasId]),
    ).then((row) => row.token);
  const unshare = (db: pg.ClientBase, actor: string | null, aliasId: string) =>
    asActor(db, actor, (as) => as.query('select public.unshare_link_analytics($1)', [aliasId]));
  const publicAnalytics = (db: pg.ClientBase, token: string, period = 'last_24_hour') =>
    asActor(db, null, (as) =>
      one<{ answer: { clicks: number; alias: string } }>(
        as,
        'select public.public_link_analytics($1, $2) as answer',
        [token, period],
      ),
    ).then((row) => row.answer);

  it('a link manager or the link’s creator shares; anyone with the token reads', () =>
    withScene(async (db, scene) => {
      const token = await share(db, scene.cast.member.id, scene.links.team.id);
      expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
      // Sharing again answers the same token.
      expect(await share(db, scene.cast.teamAdmin.id, scene.links.team.id)).toBe(token);
      expect(await publicAnalytics(db, token)).toMatchObject({
        clicks: 4,
        alias: scene.links.team.alias,
      });
    }));

  it('viewers may not share; strangers are told the link does not exist', () =>
    withScene(async (db, scene) => {
      await expectAnalyticsError(
        share(db, scene.cast.viewer.id, scene.links.team.id),
        'permission_denied',
      );
      await expectAnalyticsError(
        share(db, scene.cast.stranger.id, scene.links.team.id),
        'alias_not_found',
      );
      await expectAnalyticsError(
        share(db, scene.cast.orgUser.id, scene.links.team.id),
        'alias_not_found',
      );
      await expectRefused(share(db, null, scene.links.team.id));
    }));

  it('the plan must have share_analytics and analytics_public', () =>
    withRollback(pool, async (db) => {
      const withoutPublic = await createAnalyticsScene(db, {
        options: { analytics_enabled: true, analytics_public: false },
      });
      await expectAnalyticsError(
        share(db, withoutPublic.cast.member.id, withoutPublic.links.team.id),
        'share_analytics_not_allowed',
      );
      const withoutFeature = await createAnalyticsScene(db, {
        features: ANALYTICS_FEATURES.filter((feature) => feature !== 'share_analytics'),
      });
      await expectAnalyticsError(
        share(db, withoutFeature.cast.member.id, withoutFeature.links.team.id),
        'share_analytics_not_allowed',
      );
    }));

  it('unknown tokens, unshared, deleted links and plans that lost sharing read as not found', () =>
    withScene(async (db, scene) => {
      await expectAnalyticsError(publicAnalytics(db, 'A'.repeat(24)), 'analytics_share_not_found');
      const token = await share(db, scene.cast.member.id, scene.links.team.id);
      await unshare(db, scene.cast.member.id, scene.links.team.id);
      await expectAnalyticsError(publicAnalytics(db, token), 'analytics_share_not_found');

      const again = await share(db, scene.cast.member.id, scene.links.team.id);
      await db.query(`update public.aliases set status = 'deleted' where id = $1`, [
        scene.links.team.id,
      ]);
      await expectAnalyticsError(publicAnalytics(db, again), 'analytics_share_not_found');
      await db.query(`update public.aliases set status = 'active' where id = $1`, [
        scene.links.team.id,
      ]);
      expect((await publicAnalytics(db, again)).clicks).toBe(4);
      await db.query(
        `update public.plan_prices pp set options = options || '{"analytics_public": false}'
         where pp.id = app.account_price_id($1)`,
        [scene.cast.organization.accountId],
      );
      await expectAnalyticsError(publicAnalytics(db, again), 'analytics_share_not_found');
    }));

  it('shares are read by the account’s readers and written only through the RPCs', () =>
    withScene(async (db, scene) => {
      await share(db, scene.cast.member.id, scene.links.team.id);
      const seen = (actor: string) =>
        asActor(db, actor, (as) =>
          all<{ alias_id: string }>(as, 'select alias_id from public.analytics_shares'),
        );
      expect(await seen(scene.cast.viewer.id)).toEqual([{ alias_id: scene.links.team.id }]);
      expect(await seen(scene.cast.stranger.id)).toEqual([]);
      await expectRefused(
        asActor(db, null, (as) => as.query('select * from public.analytics_shares')),
      );
      await expectRefused(
        asActor(db, scene.cast.teamAdmin.id, (as) =>
          as.query(`update public.analytics_shares set token = $1`, ['B'.repeat(24)]),
        ),
      );
      await expectRefused(
        asActor(db, scene.cast.teamAdmin.id, (as) =>
          as.query('delete from public.analytics_shares'),
        ),
      );
    }));
});

describe('click_log_csv', () => {
  const csv = (
    db: pg.ClientBase,
    actor: string | null,
    args: { alias?: string; account?: string },
  ) =>
    asActor(db, actor, (as) =>
      one<{ csv: string }>(as, 'select public.click_log_csv($1, $2) as csv', [
        args.alias ?? null,
        args.account ?? null,
      ]),
    ).then((row) => row.csv);

  it('lists the raw clicks, bots included, with formula-looking values defused', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      await addClicks(db, scene.links.team.id, [
        { ago: '3 minutes', browser: '=HYPERLINK("https://evil.example")', referrer: '-2+3' },
        { ago: '2 minutes', bot: true, device: 'other', browser: null, os: null, country: null },
        { ago: '2 days' },
      ]);
      const text = await csv(db, scene.cast.member.id, { alias: scene.links.team.id });
      const lines = text.split('\r\n');
      expect(lines[0]).toBe('time,domain,alias,country,device,browser,os,referrer,bot,qr,visitor');
      expect(lines.at(-1)).toBe('');
      expect(lines).toHaveLength(4);
      expect(lines[1]).toContain(
        `,${scene.links.team.alias},US,desktop,"'=HYPERLINK(""https://evil.example"")",Windows,'-2+3,false,false,`,
      );
      expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z,/);
      expect(lines[1]).toMatch(/,[0-9a-f]{16}$/);
      expect(lines[2]).toContain(`,${scene.links.team.alias},,other,,,,true,false,`);
    }));

  it('needs download_logs, and a reader of the link or account', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      await addClicks(db, scene.links.team.id, [{ ago: '1 minute' }]);
      for (const actor of [
        'owner',
        'supervisor',
        'teamAdmin',
        'member',
        'viewer',
        'staff',
      ] as const) {
        expect(
          await csv(db, scene.cast[actor].id, { account: scene.cast.team.accountId }),
          actor,
        ).toContain(scene.links.team.alias);
      }
      await expectAnalyticsError(
        csv(db, scene.cast.stranger.id, { alias: scene.links.team.id }),
        'alias_not_found',
      );
      await expectAnalyticsError(
        csv(db, scene.cast.orgUser.id, { account: scene.cast.team.accountId }),
        'permission_denied',
      );
      await expectRefused(csv(db, null, { alias: scene.links.team.id }));
      await expectAnalyticsError(
        csv(db, scene.cast.member.id, {
          alias: scene.links.team.id,
          account: scene.cast.team.accountId,
        }),
        'analytics_target_invalid',
      );
      await expectAnalyticsError(csv(db, scene.cast.member.id, {}), 'analytics_target_invalid');

      const noLogs = await createAnalyticsScene(db, {
        features: ANALYTICS_FEATURES.filter((feature) => feature !== 'download_logs'),
      });
      await expectAnalyticsError(
        csv(db, noLogs.cast.member.id, { alias: noLogs.links.team.id }),
        'download_logs_not_allowed',
      );
    }));

  it('PostgREST answers it as a text/csv download (Accept: text/csv)', async () => {
    const env = inject('stackEnv');
    // Seeded: the Acme owner's personal Business plan has download_logs; "talk" has clicks.
    const owner = await one<{ id: string; alias_id: string }>(
      pool,
      `select p.id, a.id as alias_id from public.profiles p
       join public.aliases a on a.account_id = p.personal_account_id and a.alias = 'talk'
       where p.email = 'owner@shortlane.test'`,
    );
    const token = await signToken(env.SUPABASE_JWT_SECRET, {
      sub: owner.id,
      role: 'authenticated',
      aud: 'authenticated',
      aal: 'aal1',
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const answer = await fetch(`${env.SUPABASE_URL}/rest/v1/rpc/click_log_csv`, {
      method: 'POST',
      headers: {
        apikey: env.SUPABASE_ANON_KEY,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'text/csv',
      },
      body: JSON.stringify({ p_alias_id: owner.alias_id, p_period: 'last_30_day' }),
    });
    const body = await answer.text();
    expect(answer.status, body).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-disposition')).toBe(
      'attachment; filename="clicks-last_30_day.csv"',
    );
    expect(body.split('\r\n')[0]).toBe(
      'time,domain,alias,country,device,browser,os,referrer,bot,qr,visitor',
    );
    expect(body).toContain(',olivia.shrt.localhost,talk,');
  });
});
