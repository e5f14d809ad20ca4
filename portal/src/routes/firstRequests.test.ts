import type { QueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { describe, expect, it } from 'vitest';
import { profileKeys } from '../data/keys.ts';
import { createQueryClient } from '../lib/queryClient.ts';
import { json, TestBackend } from '../test/backend.ts';
import { createTestServices, sessionBody, startSession } from '../test/services.ts';
import {
  ACCOUNT_ID,
  accountAnalyticsReport,
  scriptWorld,
  signedInWorld,
  TEST_USER_ID,
} from '../test/world.ts';
import { startFirstRequests } from './firstRequests.ts';
import { prefetchDataAt } from './routeTable.tsx';

const world = signedInWorld();

function dashboardBackend(periods: string[]) {
  return scriptWorld(new TestBackend(), world)
    .table('aliases', [])
    .on('POST', '/rest/v1/rpc/account_analytics_access', () =>
      json({ account_id: ACCOUNT_ID, periods }),
    )
    .on('POST', '/rest/v1/rpc/account_analytics', () =>
      json(
        accountAnalyticsReport({
          period: 'last_7_day',
          from: '2026-11-15T00:00:00+00:00',
          to: '2026-11-22T00:00:00+00:00',
          unit: 'day',
          clicks: 3,
        }),
      ),
    );
}

async function start(backend: TestBackend, queryClient: QueryClient, signedIn = true) {
  const testServices = createTestServices(backend);
  if (signedIn) await startSession(testServices, backend, world.user!);
  const location = { pathname: '/app/dashboard', search: '' };
  await startFirstRequests(queryClient, testServices.services.supabase, location, (context) =>
    prefetchDataAt(location.pathname, context),
  );
}

describe('the first requests, from the entry', { timeout: 20_000 }, () => {
  it("asks the shell's account state and the dashboard's links and clicks, each once", async () => {
    window.localStorage.setItem(STORAGE_KEYS.statsPeriod, 'last_7_day');
    const backend = dashboardBackend(['last_1_hour', 'last_24_hour', 'last_7_day']);
    const queryClient = createQueryClient();
    await start(backend, queryClient);

    expect(queryClient.getQueryData(profileKeys.detail(TEST_USER_ID))).toMatchObject({
      personal_account_id: ACCOUNT_ID,
    });
    for (const table of ['profiles', 'plans', 'subscriptions', 'accounts', 'aliases']) {
      expect(backend.requestsTo('GET', `/rest/v1/${table}`), table).toHaveLength(1);
    }
    const clicks = backend.requestsTo('POST', '/rest/v1/rpc/account_analytics');
    expect(clicks).toHaveLength(1);
    expect(await clicks[0]!.json()).toEqual({ p_account_id: ACCOUNT_ID, p_period: 'last_7_day' });
  });

  it('asks no clicks a plan without analytics would be refused', async () => {
    const backend = dashboardBackend([]);
    await start(backend, createQueryClient());
    expect(backend.requestsTo('POST', '/rest/v1/rpc/account_analytics_access')).toHaveLength(1);
    expect(backend.requestsTo('POST', '/rest/v1/rpc/account_analytics')).toHaveLength(0);
  });

  it('asks nothing of an account without a session', async () => {
    const backend = dashboardBackend([]);
    await start(backend, createQueryClient(), false);
    expect(backend.requestsTo('GET', '/rest/v1/profiles')).toHaveLength(0);
    expect(backend.requestsTo('GET', '/rest/v1/aliases')).toHaveLength(0);
  });

  it('asks nothing of the account while the session owes its second factor', async () => {
    const backend = dashboardBackend([]);
    const testServices = createTestServices(backend);
    // A password sign-in (aal1) of a user with a verified TOTP factor.
    const body = sessionBody(world.user!);
    const factor = { id: 'f', factor_type: 'totp', status: 'verified', friendly_name: 'phone' };
    backend.on('GET', '/auth/v1/user', () => json({ ...body.user, factors: [factor] }));
    const { error } = await testServices.services.supabase.auth.setSession(body);
    expect(error).toBeNull();
    await startFirstRequests(
      createQueryClient(),
      testServices.services.supabase,
      { pathname: '/app/dashboard', search: '' },
      () => Promise.resolve(),
    );
    expect(backend.requestsTo('GET', '/rest/v1/profiles')).toHaveLength(0);
  });
});
