import { rem } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import {
  ACCOUNT_ID,
  accountAnalyticsReport,
  signedInWorld,
  subscriptionRow,
} from '../../test/world.ts';
import { AccountAnalyticsPanel, CLICKS_BODY_HEIGHT } from './AccountAnalyticsPanel.tsx';

const world = signedInWorld({ subscriptions: [subscriptionRow()] });

function accountReport(period: string, clicks: number) {
  return accountAnalyticsReport({
    period,
    from: '2026-11-22T15:00:00+00:00',
    to: '2026-11-22T16:00:00+00:00',
    unit: 'minute',
    clicks,
    series: [
      { time: '2026-11-22T15:58:00+00:00', clicks: 0 },
      { time: '2026-11-22T15:59:00+00:00', clicks },
    ],
  });
}

/** The access RPC's answer: the periods the plan covers. */
function withPeriods(backend: TestBackend, periods: string[]) {
  return backend.on('POST', '/rest/v1/rpc/account_analytics_access', () =>
    json({ account_id: ACCOUNT_ID, periods }),
  );
}
const ALL_PERIODS = ['last_1_hour', 'last_24_hour', 'last_7_day', 'last_30_day'];

// First renders are slow on a busy machine.
describe('AccountAnalyticsPanel (dashboard)', { timeout: 20_000 }, () => {
  it("shows the account's clicks over the remembered period", async () => {
    window.localStorage.setItem(STORAGE_KEYS.statsPeriod, 'last_1_hour');
    const backend = withPeriods(new TestBackend(), ALL_PERIODS).on(
      'POST',
      '/rest/v1/rpc/account_analytics',
      async (request) => {
        const body = (await request.json()) as { p_account_id: string; p_period: string };
        expect(body).toEqual({ p_account_id: ACCOUNT_ID, p_period: 'last_1_hour' });
        return json(accountReport(body.p_period, 12));
      },
    );
    render(<AccountAnalyticsPanel accountId={ACCOUNT_ID} />, { world, backend });
    const panel = await screen.findByRole('region', { name: 'Clicks' });
    expect(await within(panel).findByText('12')).toBeVisible();
    expect(within(panel).getByText(/clicks on all your links in the last hour/)).toBeVisible();
    // The chart's part follows the total, in a later pass.
    expect(
      await within(panel).findByRole('heading', { level: 3, name: 'Clicks over time' }),
    ).toBeVisible();
    expect(within(panel).getByRole('radio', { name: '1h' })).toBeChecked();
  });

  it('keeps the room of the clicks while they load, so the links under it stay put', async () => {
    let answer: (response: Response) => void = () => undefined;
    const backend = withPeriods(new TestBackend(), ALL_PERIODS).on(
      'POST',
      '/rest/v1/rpc/account_analytics',
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    render(<AccountAnalyticsPanel accountId={ACCOUNT_ID} />, { world, backend });
    const panel = await screen.findByRole('region', { name: 'Clicks' });
    await waitFor(() =>
      expect(backend.requestsTo('POST', '/rest/v1/rpc/account_analytics')).toHaveLength(1),
    );
    const frame = within(panel).getByRole('status');
    expect(frame).toHaveTextContent('Loading the clicks…');
    expect(frame.style.minHeight).toBe(rem(CLICKS_BODY_HEIGHT));

    answer(json(accountReport('last_24_hour', 7)));
    expect(await within(panel).findByText('7')).toBeVisible();
    expect(within(panel).queryByText('Loading the clicks…')).toBeNull();
  });

  it('says when nobody clicked', async () => {
    const backend = withPeriods(new TestBackend(), ALL_PERIODS).on(
      'POST',
      '/rest/v1/rpc/account_analytics',
      () => json(accountReport('last_24_hour', 0)),
    );
    render(<AccountAnalyticsPanel accountId={ACCOUNT_ID} />, { world, backend });
    expect(await screen.findByText(/No clicks yet in the last 24 hours/)).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Clicks over time' })).not.toBeInTheDocument();
  });

  it('points a plan without analytics to the plans, and asks for no clicks', async () => {
    const backend = withPeriods(new TestBackend(), []);
    render(<AccountAnalyticsPanel accountId={ACCOUNT_ID} />, { world, backend });
    expect(await screen.findByText(/Your plan does not include analytics\./)).toBeVisible();
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute(
      'href',
      '/app/pricing',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('radiogroup', { name: 'Period' })).not.toBeInTheDocument();
    // The server would refuse it: it is never asked.
    expect(backend.requestsTo('POST', '/rest/v1/rpc/account_analytics')).toHaveLength(0);
  });

  it('asks only for a period the plan covers, and says the remembered one is not', async () => {
    window.localStorage.setItem(STORAGE_KEYS.statsPeriod, 'last_30_day');
    const asked: string[] = [];
    const backend = withPeriods(new TestBackend(), ['last_1_hour', 'last_24_hour']).on(
      'POST',
      '/rest/v1/rpc/account_analytics',
      async (request) => {
        const body = (await request.json()) as { p_period: string };
        asked.push(body.p_period);
        return json(accountReport(body.p_period, 3));
      },
    );
    render(<AccountAnalyticsPanel accountId={ACCOUNT_ID} />, { world, backend });
    expect(await screen.findByText(/clicks on all your links in the last 24 hours/)).toBeVisible();
    expect(
      screen.getByText(/Your plan does not include analytics for this period\./),
    ).toBeVisible();
    expect(screen.getByRole('radio', { name: '30d' })).toBeDisabled();
    expect(asked).toEqual(['last_24_hour']);
  });

  it('shows other failures as an error', async () => {
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/account_analytics_access', () =>
      postgrestError(403, {
        message: 'permission_denied',
        details: 'Permission denied',
        hint: 'form',
      }),
    );
    render(<AccountAnalyticsPanel accountId={ACCOUNT_ID} />, { world, backend });
    expect(await screen.findByRole('alert')).toHaveTextContent('Permission denied');
  });
});
