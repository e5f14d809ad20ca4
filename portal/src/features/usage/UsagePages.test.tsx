import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import { compareOptions, usageColor, usageLabel } from './usageLabels.ts';

// Whole-app renders on a loaded machine: more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });

const PERSONAL_ACCOUNT = '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21';
const SLOW = { timeout: 10_000 };

const option = (used: number | null, limit: number | null, overage = false) => ({
  used,
  limit,
  soft_limit: null,
  overage,
});

const USAGE = {
  period_starts_at: '2026-11-01T00:00:00+00:00',
  period_ends_at: '2026-12-01T00:00:00+00:00',
  limits: {
    max_members: option(2, 5),
    max_active_aliases: option(45, 50),
    max_aliases_per_month: option(120, 100, true),
    max_api_credits: option(300, null),
    max_recent_urls: option(null, 10),
  },
};

function backendWith(usage: Parameters<typeof json>[0]) {
  const backend = new TestBackend();
  backend.on('POST', '/rest/v1/rpc/account_usage', () => json(usage));
  return backend;
}

const bodyOf = async (backend: TestBackend) => {
  const [request] = backend.requestsTo('POST', '/rest/v1/rpc/account_usage');
  return request ? ((await request.clone().json()) as unknown) : undefined;
};

describe('settings/usage', () => {
  it('shows each limit of the personal account as a bar with its figures', async () => {
    const backend = backendWith(USAGE);
    renderApp({ route: '/app/settings/usage', world: signedInWorld(), backend });

    const list = await screen.findByLabelText('Usage by limit', {}, SLOW);
    const bars = within(list).getAllByRole('progressbar');
    // Known options in the page's order; unlimited and allowance rows have no bar.
    expect(bars.map((bar) => bar.getAttribute('aria-label'))).toEqual([
      'Active short links: 45 of 50 used (90%)',
      'Short links this month: 120 of 100 used (120%)',
      'Member seats: 2 of 5 used (40%)',
    ]);
    expect(within(list).getByText('45 / 50 (90%)')).toBeInTheDocument();
    expect(within(list).getByText(/120 \/ 100 \(120%\) · overage on/)).toBeInTheDocument();
    expect(within(list).getByText('API credits')).toBeInTheDocument();
    expect(within(list).getByText('Unlimited')).toBeInTheDocument();
    expect(within(list).getByText('10 allowed')).toBeInTheDocument();
    expect(screen.getByText('Monthly figures reset on December 1, 2026.')).toBeInTheDocument();
    expect(await bodyOf(backend)).toEqual({ p_account_id: PERSONAL_ACCOUNT });
  });

  it('says when the usage could not be loaded and tries again', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/account_usage', () =>
      postgrestError(500, { code: 'XX000', message: 'boom' }),
    );
    const { user } = renderApp({ route: '/app/settings/usage', world: signedInWorld(), backend });
    const alert = await screen.findByText('The usage could not be loaded', {}, SLOW);
    backend.on('POST', '/rest/v1/rpc/account_usage', () => json(USAGE));
    await user.click(within(alert.closest('[role="alert"]')!).getByRole('button'));
    expect(await screen.findByLabelText('Usage by limit', {}, SLOW)).toBeInTheDocument();
  });

  it('tells someone who may not see the usage whom to ask', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/account_usage', () =>
      postgrestError(403, { code: 'PT403', message: 'Permission denied' }),
    );
    renderApp({ route: '/app/settings/usage', world: signedInWorld(), backend });
    expect(
      await screen.findByText("Usage is for the account's billing managers", {}, SLOW),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('says so when the plan has no limits to show', async () => {
    const backend = backendWith({ ...USAGE, limits: {} });
    renderApp({ route: '/app/settings/usage', world: signedInWorld(), backend });
    expect(
      await screen.findByText('Your plan sets no limits to show.', {}, SLOW),
    ).toBeInTheDocument();
  });
});

describe('Manage Overages', () => {
  const PAID = {
    ...USAGE,
    overage_available: true,
    currency: 'USD',
    limits: { max_aliases_per_month: { ...option(100, 100), over: 0 } },
    charges: [
      {
        id: 'c1',
        period_starts_at: '2026-10-01T00:00:00+00:00',
        period_ends_at: '2026-11-01T00:00:00+00:00',
        units: 150,
        amount: 300,
        currency: 'USD',
        status: 'reported',
      },
    ],
  };

  it('turns overage on for a paid plan, then shows the units over and what was billed', async () => {
    const backend = backendWith(PAID);
    backend.on('POST', '/rest/v1/rpc/set_overage', () =>
      json({
        ...PAID,
        limits: { max_aliases_per_month: { ...option(150, 100, true), over: 50 } },
      }),
    );
    const { user } = renderApp({ route: '/app/settings/usage', world: signedInWorld(), backend });
    const toggle = await screen.findByRole('switch', {}, SLOW);
    expect(toggle).not.toBeChecked();
    expect(screen.getByRole('table', { name: 'Overage billed' })).toHaveTextContent(
      /150\$3\.00On your next invoice/,
    );
    await user.click(toggle);
    expect(await screen.findByLabelText('Overage this period')).toHaveTextContent(
      '50 units over, about $1.00',
    );
    expect(screen.getByRole('switch')).toBeChecked();
    const [request] = backend.requestsTo('POST', '/rest/v1/rpc/set_overage');
    expect(await request?.clone().json()).toEqual({
      p_account_id: PERSONAL_ACCOUNT,
      p_enabled: true,
    });
  });

  it('offers the upgrade instead without a paid plan', async () => {
    const backend = backendWith({ ...USAGE, overage_available: false, charges: [] });
    renderApp({ route: '/app/settings/usage', world: signedInWorld(), backend });
    expect(await screen.findByText(/Overages need a paid plan/, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Your Plan' })).toHaveAttribute(
      'href',
      '/app/settings/subscription',
    );
    expect(screen.queryByRole('switch')).toBeNull();
  });
});

describe('team usage page', () => {
  it("reads the team's account and shows the shared panel", async () => {
    const backend = backendWith(USAGE);
    backend.on('POST', '/rest/v1/rpc/my_team_permissions', () => json(['settings', 'billing']));
    backend.on('GET', '/rest/v1/invitations', () => json([]));
    const team = {
      id: 'team-1',
      account_id: 'team-account-1',
      slug: 'growth',
      name: 'Growth',
    };
    renderApp({
      route: '/app/organization/_/team/growth/usage',
      world: signedInWorld({
        accountFeatures: ['support_teams'],
        teamMemberships: [
          { role: 'admin', team: { ...team, archived_at: null, organization: null } },
        ],
        teamsBySlug: [{ id: team.id, name: team.name, account_id: team.account_id }],
        teamMembers: [],
      }),
      backend,
    });
    const list = await screen.findByLabelText('Usage by limit', {}, SLOW);
    expect(within(list).getAllByRole('progressbar')).toHaveLength(3);
    expect(await bodyOf(backend)).toEqual({ p_account_id: 'team-account-1' });
  });
});

describe('usage labels', () => {
  it('colours at 80 % and 100 %', () => {
    expect(usageColor(79.9)).toBeUndefined();
    expect(usageColor(80)).toBe('orange');
    expect(usageColor(99.9)).toBe('orange');
    expect(usageColor(100)).toBe('red');
  });

  it('names every option and keeps unknown ones, after the known', () => {
    expect(usageLabel('max_trackable_clicks')).toBe('Trackable clicks this month');
    expect(usageLabel('max_future')).toBe('max_future');
    expect(['max_future', 'max_members', 'max_active_aliases'].sort(compareOptions)).toEqual([
      'max_active_aliases',
      'max_members',
      'max_future',
    ]);
  });
});
