import type pg from 'pg';
import { expect } from 'vitest';
import { createCast, expectDatabaseError, type Cast } from '../support/index.ts';
import { createDomain, createLink, givePlan, LINK_FEATURES, type TestLink } from './fixtures.ts';

/**
 * Scene-setting for the analytics tests (migration 001110): an organization on a plan with
 * analytics, sharing and log downloads, its team's and a member's links, a stranger on the free
 * plan (no analytics), and clicks placed at chosen times.
 */

/** The codes the analytics RPCs raise beside the shared ones. */
export const ANALYTICS_ERRORS = {
  analytics_not_allowed: {
    status: 403,
    detail: 'Your plan does not include analytics.',
    hint: 'form',
  },
  analytics_period_invalid: {
    status: 422,
    detail: 'The selected period is invalid.',
    hint: 'period',
  },
  analytics_period_not_allowed: {
    status: 403,
    detail: 'Your plan does not include analytics for this period.',
    hint: 'period',
  },
  download_logs_not_allowed: {
    status: 403,
    detail: 'Your plan does not allow downloading click logs.',
    hint: 'form',
  },
  share_analytics_not_allowed: {
    status: 403,
    detail: 'Your plan does not allow sharing analytics.',
    hint: 'form',
  },
  analytics_share_not_found: { status: 404, detail: 'Analytics not found.', hint: 'analytics' },
  analytics_target_invalid: {
    status: 422,
    detail: 'Give either a link or an account.',
    hint: 'form',
  },
  click_log_too_large: {
    status: 422,
    detail: 'The click log has more than 100000 rows; choose a shorter period.',
    hint: 'period',
  },
  alias_not_found: { status: 404, detail: 'Alias not found', hint: 'alias' },
  permission_denied: { status: 403, detail: 'Permission denied', hint: 'form' },
} as const;

export async function expectAnalyticsError(
  promise: Promise<unknown>,
  code: keyof typeof ANALYTICS_ERRORS,
): Promise<void> {
  const error = await expectDatabaseError(promise);
  const expected = ANALYTICS_ERRORS[code];
  expect({
    code: error.code,
    message: error.message,
    detail: error.detail,
    hint: error.hint,
  }).toEqual({
    code: `PT${expected.status}`,
    message: code,
    detail: expected.detail,
    hint: expected.hint,
  });
}

export const ANALYTICS_FEATURES = [...LINK_FEATURES, 'use_analytics', 'share_analytics'];

export interface AnalyticsScene {
  cast: Cast;
  links: { team: TestLink; orgPersonal: TestLink; stranger: TestLink; guest: TestLink };
}

export async function createAnalyticsScene(
  db: pg.ClientBase,
  plan: { features?: string[]; options?: Record<string, unknown> } = {},
): Promise<AnalyticsScene> {
  const cast = await createCast(db);
  await givePlan(db, cast.organization.accountId, {
    features: plan.features ?? ANALYTICS_FEATURES,
    options: plan.options ?? {
      analytics_enabled: true,
      analytics_public: true,
      analytics_period: 'P1Y',
    },
  });
  const domain = await createDomain(db, { allowForGuests: true });
  const organizationId = cast.organization.id;
  return {
    cast,
    links: {
      team: await createLink(db, {
        accountId: cast.team.accountId,
        createdBy: cast.member.id,
        domainId: domain.id,
        organizationId,
      }),
      orgPersonal: await createLink(db, {
        accountId: cast.member.personalAccountId,
        createdBy: cast.member.id,
        domainId: domain.id,
        organizationId,
      }),
      stranger: await createLink(db, {
        accountId: cast.stranger.personalAccountId,
        createdBy: cast.stranger.id,
        domainId: domain.id,
      }),
      guest: await createLink(db, { accountId: null, createdBy: null, domainId: domain.id }),
    },
  };
}

export interface ClickSpec {
  /** How long before the transaction's now() (a Postgres interval). */
  ago: string;
  country?: string | null;
  device?: string;
  browser?: string | null;
  os?: string | null;
  referrer?: string | null;
  bot?: boolean;
  qr?: boolean;
  /** How many identical clicks (default 1). */
  count?: number;
}

/** Clicks of a link at times relative to now(), copied with the link's account. */
export async function addClicks(db: pg.ClientBase, aliasId: string, clicks: ClickSpec[]) {
  await db.query(
    `insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
       referrer_host, is_bot, is_qr, ip_hash)
     select now() - c.ago::interval, a.id, a.account_id, c.country, c.device, c.browser, c.os,
       c.referrer, c.bot, c.qr, sha256(convert_to(c.ago || g::text, 'utf8'))
     from jsonb_to_recordset($2::jsonb) as c(ago text, country text, device text, browser text,
       os text, referrer text, bot boolean, qr boolean, count integer)
     cross join lateral generate_series(1, coalesce(c.count, 1)) as g
     join public.aliases a on a.id = $1`,
    [
      aliasId,
      JSON.stringify(
        clicks.map((click) => ({
          ago: click.ago,
          country: click.country === undefined ? 'US' : click.country,
          device: click.device ?? 'desktop',
          browser: click.browser === undefined ? 'Chrome' : click.browser,
          os: click.os === undefined ? 'Windows' : click.os,
          referrer: click.referrer ?? null,
          bot: click.bot ?? false,
          qr: click.qr ?? false,
          count: click.count ?? 1,
        })),
      ),
    ],
  );
}
