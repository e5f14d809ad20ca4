import { screen, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { describe, expect, it } from 'vitest';
import type { AnalyticsReport, LinkAnalyticsAccess } from '../../data/link-analytics-query.ts';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { signedInWorld, subscriptionRow } from '../../test/world.ts';

const ALIAS_ID = '3f6c1d2e-8a4b-4c5d-9e6f-0a1b2c3d4e5f';
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv_-';
const ALL_PERIODS = ['last_1_hour', 'last_24_hour', 'last_7_day', 'last_30_day'] as const;

function access(overrides: Partial<LinkAnalyticsAccess> = {}): LinkAnalyticsAccess {
  return {
    alias_id: ALIAS_ID,
    domain: 'pat-links.localhost',
    alias: 'spring-launch',
    periods: [...ALL_PERIODS],
    can_share: false,
    share_token: null,
    can_download_logs: false,
    ...overrides,
  };
}

function report(overrides: Partial<AnalyticsReport> = {}): AnalyticsReport {
  return {
    period: 'last_24_hour',
    from: '2026-11-21T16:00:00+00:00',
    to: '2026-11-22T16:00:00+00:00',
    unit: 'hour',
    clicks: 7,
    bot_clicks: 1,
    qr_clicks: 2,
    series: [
      { time: '2026-11-22T14:00:00+00:00', clicks: 3 },
      { time: '2026-11-22T15:00:00+00:00', clicks: 4 },
    ],
    countries: [
      { value: 'DE', clicks: 5 },
      { value: null, clicks: 2 },
    ],
    devices: [{ value: 'mobile', clicks: 7 }],
    browsers: [{ value: 'Firefox', clicks: 7 }],
    oses: [{ value: 'Android', clicks: 7 }],
    referrers: [{ value: 'news.ycombinator.com', clicks: 7 }],
    domain: 'pat-links.localhost',
    alias: 'spring-launch',
    ...overrides,
  };
}

const EMPTY = report({
  clicks: 0,
  bot_clicks: 0,
  qr_clicks: 0,
  series: [{ time: '2026-11-22T15:00:00+00:00', clicks: 0 }],
  countries: [],
  devices: [],
  browsers: [],
  oses: [],
  referrers: [],
});

/** The periods the page asked for, in order. */
async function periodsAsked(backend: TestBackend, rpc: string): Promise<string[]> {
  const bodies = await Promise.all(
    backend.requestsTo('POST', `/rest/v1/rpc/${rpc}`).map((request) => request.clone().json()),
  );
  return bodies.map((body: { p_period: string }) => body.p_period);
}

function linkBackend(
  accessAnswer: LinkAnalyticsAccess,
  reportFor = (period: string) => report({ period: period as AnalyticsReport['period'] }),
) {
  return new TestBackend()
    .on('POST', '/rest/v1/rpc/link_analytics_access', () => json(accessAnswer))
    .on('POST', '/rest/v1/rpc/link_analytics', async (request) => {
      const body = (await request.json()) as { p_period: string };
      return json(reportFor(body.p_period));
    });
}

const subscriber = () => signedInWorld({ subscriptions: [subscriptionRow()] });

// The first render loads the page's lazy modules: slow on a busy machine.
describe('AnalyticsPage for a link (analytics/{link id})', { timeout: 20_000 }, () => {
  it('shows the totals, clicks over time and breakdowns for the default 24 hours', async () => {
    const backend = linkBackend(access());
    const { user } = renderApp({
      route: `/app/analytics/${ALIAS_ID}`,
      world: subscriber(),
      backend,
    });
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Analytics for pat-links.localhost/spring-launch',
      }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'pat-links.localhost/spring-launch' })).toHaveAttribute(
      'href',
      'http://pat-links.localhost:54321/spring-launch',
    );
    const clicks = await screen.findByRole('heading', { level: 2, name: 'Clicks' });
    expect(clicks.parentElement).toHaveTextContent('7');
    expect(screen.getByRole('radio', { name: '24h' })).toBeChecked();
    expect(await periodsAsked(backend, 'link_analytics')).toEqual(['last_24_hour']);

    const countries = screen.getByRole('region', { name: 'Countries' });
    expect(within(countries).getByRole('rowheader', { name: 'Germany' })).toBeVisible();
    expect(within(countries).getByRole('row', { name: /Unknown country 2 28.6%/ })).toBeVisible();

    // The chart's table alternative carries every bucket.
    const overTime = screen.getByRole('region', { name: 'Clicks over time' });
    expect(within(overTime).getByRole('img', { name: /7 clicks from/ })).toBeInTheDocument();
    await user.click(within(overTime).getByText('Table'));
    const table = within(overTime).getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('cell', { name: '4' })).toBeVisible();
  });

  it('keeps a screen of room while the report loads, so the footer does not jump', async () => {
    let answer: (response: Response) => void = () => undefined;
    const backend = linkBackend(access()).on(
      'POST',
      '/rest/v1/rpc/link_analytics',
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    renderApp({ route: `/app/analytics/${ALIAS_ID}`, world: subscriber(), backend });
    await screen.findByRole('heading', { level: 1, name: /Analytics for/ });
    const frame = screen
      .getAllByRole('status')
      .find((node) => node.textContent === 'Loading the analytics…');
    expect(frame?.style.minHeight).toBe('100vh');

    answer(json(report()));
    expect(await screen.findByRole('heading', { level: 2, name: 'Clicks' })).toBeVisible();
    expect(screen.queryByText('Loading the analytics…')).toBeNull();
  });

  it('asks for the chosen period and remembers it for next time', async () => {
    const backend = linkBackend(access());
    const { user } = renderApp({
      route: `/app/analytics/${ALIAS_ID}`,
      world: subscriber(),
      backend,
    });
    await screen.findByRole('heading', { level: 2, name: 'Clicks' });
    await user.click(screen.getByText('7d'));
    await screen.findByText('the last 7 days');
    expect(await periodsAsked(backend, 'link_analytics')).toEqual(['last_24_hour', 'last_7_day']);
    expect(window.localStorage.getItem(STORAGE_KEYS.statsPeriod)).toBe('last_7_day');
  });

  it('starts from the stored period, but only asks for periods the plan covers', async () => {
    window.localStorage.setItem(STORAGE_KEYS.statsPeriod, 'last_30_day');
    const backend = linkBackend(access({ periods: ['last_1_hour', 'last_24_hour', 'last_7_day'] }));
    renderApp({ route: `/app/analytics/${ALIAS_ID}`, world: subscriber(), backend });
    await screen.findByRole('heading', { level: 2, name: 'Clicks' });
    expect(await periodsAsked(backend, 'link_analytics')).toEqual(['last_7_day']);
    expect(screen.getByRole('radio', { name: '30d' })).toBeDisabled();
  });

  it('says so when nobody clicked in the period', async () => {
    renderApp({
      route: `/app/analytics/${ALIAS_ID}`,
      world: subscriber(),
      backend: linkBackend(access(), () => EMPTY),
    });
    expect(await screen.findByRole('heading', { name: 'No clicks yet' })).toBeVisible();
    expect(screen.getByText(/Nobody has opened this link in the last 24 hours/)).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Countries' })).not.toBeInTheDocument();
  });

  it('offers neither sharing nor the log download to a reader who may not use them', async () => {
    renderApp({
      route: `/app/analytics/${ALIAS_ID}`,
      world: subscriber(),
      backend: linkBackend(access()),
    });
    await screen.findByRole('heading', { level: 2, name: 'Clicks' });
    expect(screen.queryByRole('region', { name: 'Public analytics' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download click log/ })).not.toBeInTheDocument();
  });

  it('shows a reader who may not share the public address someone else shared', async () => {
    renderApp({
      route: `/app/analytics/${ALIAS_ID}`,
      world: subscriber(),
      backend: linkBackend(access({ share_token: TOKEN })),
    });
    const panel = await screen.findByRole('region', { name: 'Public analytics' });
    expect(within(panel).queryByRole('switch')).not.toBeInTheDocument();
    expect(within(panel).getByLabelText('Public address')).toHaveValue(
      `${window.location.origin}/app/analytics/${TOKEN}`,
    );
  });

  it('lets a link manager share the analytics and stop sharing them', async () => {
    const backend = linkBackend(access({ can_share: true }))
      .on('POST', '/rest/v1/rpc/share_link_analytics', () => json(TOKEN))
      .on('POST', '/rest/v1/rpc/unshare_link_analytics', () => new Response(null, { status: 204 }));
    const { user } = renderApp({
      route: `/app/analytics/${ALIAS_ID}`,
      world: subscriber(),
      backend,
    });
    const panel = await screen.findByRole('region', { name: 'Public analytics' });
    const toggle = within(panel).getByRole('switch', { name: /Anyone with the link/ });
    expect(toggle).not.toBeChecked();
    // The access is asked again after a change: from now on it answers the share.
    backend.on('POST', '/rest/v1/rpc/link_analytics_access', () =>
      json(access({ can_share: true, share_token: TOKEN })),
    );
    await user.click(toggle);
    expect(await within(panel).findByLabelText('Public address')).toHaveValue(
      `${window.location.origin}/app/analytics/${TOKEN}`,
    );
    expect(toggle).toBeChecked();
    expect(backend.requestsTo('POST', '/rest/v1/rpc/share_link_analytics')).toHaveLength(1);

    backend.on('POST', '/rest/v1/rpc/link_analytics_access', () =>
      json(access({ can_share: true })),
    );
    await user.click(toggle);
    expect(await within(panel).findByText(/Only people who can read this link/)).toBeVisible();
    expect(backend.requestsTo('POST', '/rest/v1/rpc/unshare_link_analytics')).toHaveLength(1);
  });

  it('offers the click log to readers whose plan has download_logs', async () => {
    const backend = linkBackend(access({ can_download_logs: true })).on(
      'POST',
      '/rest/v1/rpc/click_log_csv',
      () =>
        postgrestError(422, {
          message: 'click_log_too_large',
          details: 'The click log has more than 100000 rows; choose a shorter period.',
          hint: 'period',
        }),
    );
    const { user } = renderApp({
      route: `/app/analytics/${ALIAS_ID}`,
      world: subscriber(),
      backend,
    });
    await user.click(await screen.findByRole('button', { name: 'Download click log (CSV)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The click log has more than 100000 rows; choose a shorter period.',
    );
    const [request] = backend.requestsTo('POST', '/rest/v1/rpc/click_log_csv');
    expect(request?.headers.get('accept')).toBe('text/csv');
    expect(await request?.json()).toEqual({ p_alias_id: ALIAS_ID, p_period: 'last_24_hour' });
  });

  it('tells a reader the link does not exist (or is not theirs)', async () => {
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/link_analytics_access', () =>
      postgrestError(404, {
        message: 'alias_not_found',
        details: 'Alias not found',
        hint: 'alias',
      }),
    );
    renderApp({ route: `/app/analytics/${ALIAS_ID}`, world: subscriber(), backend });
    expect(await screen.findByRole('heading', { level: 1, name: 'Link not found' })).toBeVisible();
    expect(screen.getByText('Alias not found')).toBeVisible();
    expect(backend.requestsTo('POST', '/rest/v1/rpc/link_analytics')).toHaveLength(0);
  });

  it('sends a plan without analytics to the plans', async () => {
    renderApp({
      route: `/app/analytics/${ALIAS_ID}`,
      world: subscriber(),
      backend: linkBackend(access({ periods: [] })),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Analytics are not included' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute(
      'href',
      '/app/pricing',
    );
  });

  it('sends a guest to log in first, and back here after', async () => {
    const { router } = renderApp({ route: `/app/analytics/${ALIAS_ID}` });
    await screen.findByRole('heading', { level: 1, name: /Log in/i });
    expect(currentUrl(router)).toBe(
      `/app/login?to=${encodeURIComponent(`/app/analytics/${ALIAS_ID}`)}`,
    );
  });
});

describe(
  'AnalyticsPage for shared analytics (analytics/{share token})',
  { timeout: 20_000 },
  () => {
    it('shows a guest the shared analytics for the remembered period', async () => {
      window.localStorage.setItem(STORAGE_KEYS.statsPeriod, 'last_1_hour');
      const backend = new TestBackend().on('POST', '/rest/v1/rpc/public_link_analytics', () =>
        json(report({ period: 'last_1_hour', unit: 'minute' })),
      );
      renderApp({ route: `/app/analytics/${TOKEN}`, backend });
      expect(
        await screen.findByRole('heading', {
          level: 1,
          name: 'Analytics for pat-links.localhost/spring-launch',
        }),
      ).toBeVisible();
      const [request] = backend.requestsTo('POST', '/rest/v1/rpc/public_link_analytics');
      expect(await request?.json()).toEqual({ p_token: TOKEN, p_period: 'last_1_hour' });
      expect(screen.queryByRole('region', { name: 'Public analytics' })).not.toBeInTheDocument();
    });

    it('says the analytics are not found when the share is gone', async () => {
      const backend = new TestBackend().on('POST', '/rest/v1/rpc/public_link_analytics', () =>
        postgrestError(404, {
          message: 'analytics_share_not_found',
          details: 'Analytics not found.',
          hint: 'analytics',
        }),
      );
      renderApp({ route: `/app/analytics/${TOKEN}`, backend });
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Analytics not found' }),
      ).toBeVisible();
      expect(screen.getByText('Analytics not found.')).toBeVisible();
    });

    it('treats an address that is neither a link nor a token as not found', async () => {
      const backend = new TestBackend();
      renderApp({ route: '/app/analytics/not-a-hash', backend });
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Analytics not found' }),
      ).toBeVisible();
      expect(backend.requestsTo('POST', '/rest/v1/rpc/public_link_analytics')).toHaveLength(0);
    });
  },
);
