import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, tableRows, TestBackend } from '../test/backend.ts';
import { currentUrl, renderApp } from '../test/render.tsx';
import { pastDueTrialRow, signedInWorld, subscriptionRow, TEST_USER_ID } from '../test/world.ts';

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });

describe('login guard', () => {
  it('sends a guest from a protected page to login, remembering the page and its query', async () => {
    const { router } = renderApp({ route: '/app/settings/profile?coupon=BF24' });
    expect(await heading('Log in')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/login?to=%2Fapp%2Fsettings%2Fprofile%3Fcoupon%3DBF24');
  });

  it('brings the guest back to the remembered page after logging in', async () => {
    const { router, user } = renderApp({
      route: '/app/settings/profile?coupon=BF24',
      world: signedInWorld(),
      startAsGuest: true,
    });
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await heading('Profile')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/settings/profile?coupon=BF24');
  });

  it('lets a signed-in user in', async () => {
    const { router } = renderApp({ route: '/app/settings/profile', world: signedInWorld() });
    expect(await heading('Profile')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/settings/profile');
  });

  it('decides nothing while the session is still loading', async () => {
    const { router } = renderApp({ route: '/app/settings/profile', auth: { loading: true } });
    expect((await screen.findAllByRole('status'))[0]).toHaveTextContent('Loading…');
    expect(currentUrl(router)).toBe('/app/settings/profile');
  });
});

describe('guest-only guard', () => {
  it('shows the login page to a guest', async () => {
    const { router } = renderApp({ route: '/app/login' });
    expect(await heading('Log in')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/login');
  });

  it('sends a signed-in user to the homepage', async () => {
    const { router } = renderApp({ route: '/app/register', world: signedInWorld() });
    expect(await heading(/Welcome/)).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app');
  });

  it('sends a signed-in user on to a safe "to" target, but not to another site', async () => {
    const safe = renderApp({ route: '/app/login?to=%2Fapp%2Fhelp', world: signedInWorld() });
    expect(await heading('Help')).toBeInTheDocument();
    expect(currentUrl(safe.router)).toBe('/app/help');
    safe.unmount();

    const unsafe = renderApp({ route: '/app/login?to=%2F%2Fevil.example', world: signedInWorld() });
    expect(await heading(/Welcome/)).toBeInTheDocument();
    expect(currentUrl(unsafe.router)).toBe('/app');
  });
});

describe('verified-or-subscribed guard', () => {
  it('sends an unverified user without a plan to e-mail verification', async () => {
    const world = signedInWorld({
      user: { id: TEST_USER_ID, email: 'u@example.com', emailConfirmed: false },
    });
    const { router } = renderApp({ route: '/app/settings/api', world });
    expect(await heading('Verify your e-mail address')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/email/verify');
  });

  it('lets a verified user in', async () => {
    const { router } = renderApp({ route: '/app/settings/pixel-scripts', world: signedInWorld() });
    expect(await heading('Custom pixel scripts')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/settings/pixel-scripts');
  });
});

describe('teams-allowed guard', () => {
  it('sends a user whose plan has no teams to the homepage', async () => {
    const { router } = renderApp({ route: '/app/settings/teams', world: signedInWorld() });
    expect(await heading(/Welcome/)).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app');
  });

  it('lets a user with support_teams in', async () => {
    const world = signedInWorld({ accountFeatures: ['support_teams'] });
    const { router } = renderApp({ route: '/app/settings/teams', world });
    expect(await heading('Teams')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/settings/teams');
  });
});

describe('team-exists guard', () => {
  const route = '/app/organization/acme/team/sales/usage';

  it('sends an unknown team to the teams settings and says so', async () => {
    const world = signedInWorld({ accountFeatures: ['support_teams'], teamsBySlug: [] });
    const { router, backend } = renderApp({ route, world });
    expect(await heading('Teams')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/settings/teams');
    expect(await screen.findByText('Unknown team.')).toBeInTheDocument();
    const lookup = new URL(backend.requestsTo('GET', '/rest/v1/teams')[0]!.url);
    expect(lookup.searchParams.get('slug')).toBe('eq.sales');
    expect(lookup.searchParams.get('organization.slug')).toBe('eq.acme');
  });

  it('opens the page of a team the user can see', async () => {
    const world = signedInWorld({
      accountFeatures: ['support_teams'],
      teamsBySlug: [{ id: 't1', name: 'Sales' }],
    });
    const { router } = renderApp({ route, world });
    expect(await heading('Team usage')).toBeInTheDocument();
    expect(currentUrl(router)).toBe(route);
  });
});

describe('developer guard', () => {
  it('sends a non-developer to the homepage', async () => {
    const { router } = renderApp({
      route: '/app/organizations/acme/audit',
      world: signedInWorld(),
    });
    expect(await heading(/Welcome/)).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app');
  });

  it('lets a developer in', async () => {
    const world = signedInWorld({ profile: { is_developer: true } });
    const { router } = renderApp({ route: '/app/organizations/acme/audit', world });
    expect(await heading('Audit trail')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/organizations/acme/audit');
  });
});

describe('past-due guard', () => {
  const world = () => signedInWorld({ subscriptions: [pastDueTrialRow()] });

  it('sends a past-due trial user to the past-due page', async () => {
    const { router } = renderApp({ route: '/app/settings/profile', world: world() });
    expect(await heading('Your payment is past due')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/subscribe');
  });

  it('lets a past-due trial user see pricing and the legal pages', async () => {
    const pricing = renderApp({ route: '/app/pricing', world: world() });
    expect(await heading('Plans and pricing')).toBeInTheDocument();
    expect(currentUrl(pricing.router)).toBe('/app/pricing');
    pricing.unmount();

    const terms = renderApp({ route: '/app/terms', world: world() });
    expect(await heading('Terms of Service')).toBeInTheDocument();
    expect(currentUrl(terms.router)).toBe('/app/terms');
  });

  it('offers the plans on the past-due page, not a way "home" that leads back to it', async () => {
    const { router, user } = renderApp({ route: '/app/subscribe', world: world() });
    expect(await heading('Your payment is past due')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to the homepage' })).not.toBeInTheDocument();
    // The logo leads to the same page the guard would send the user to.
    expect(screen.getByRole('link', { name: /home$/ })).toHaveAttribute('href', '/app/subscribe');
    await user.click(screen.getByRole('link', { name: 'See the plans' }));
    expect(await heading('Plans and pricing')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/pricing');
  });

  it.each([
    ['a free user', []],
    ['a user on trial', [subscriptionRow({ trial_ends_at: '2026-12-31T00:00:00Z' })]],
    ['a paid-up user', [subscriptionRow()]],
  ])('sends %s from the past-due page home', async (_who, subscriptions) => {
    const { router } = renderApp({
      route: '/app/subscribe',
      world: signedInWorld({ subscriptions }),
    });
    await waitFor(() => expect(currentUrl(router)).toBe('/app'));
    expect(screen.queryByRole('heading', { name: 'Your payment is past due' })).toBeNull();
  });
});

describe('account loading failure', () => {
  it('says the account could not be loaded, and trying again recovers', async () => {
    let failures = 1;
    const backend = new TestBackend();
    const { user, router } = renderApp({
      route: '/app/settings/usage',
      world: signedInWorld(),
      backend,
    });
    backend.on('GET', '/rest/v1/profiles', (request, url) =>
      failures-- > 0
        ? postgrestError(500, { message: 'boom' })
        : tableRows([
            {
              id: TEST_USER_ID,
              email: 'ada@example.com',
              name: 'Ada',
              photo_url: null,
              is_developer: false,
              is_survey_enabled: false,
              personal_account_id: '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21',
              current_team_id: null,
              team_mode: false,
              preview_features: [],
            },
          ])(request, url),
    );
    const alert = await screen.findByRole('alert', { name: /could not be loaded/ });
    expect(alert).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await heading('Account usage')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/settings/usage');
  });
});

describe('unknown paths', () => {
  it.each(['/', '/nowhere', '/app/no-such-page', '/app/settings/no-such-page'])(
    'send %s to the homepage',
    async (route) => {
      const { router } = renderApp({ route, world: signedInWorld() });
      expect(await heading(/Welcome/)).toBeInTheDocument();
      expect(currentUrl(router)).toBe('/app');
    },
  );
});

describe('old paths and shorthands', () => {
  it.each([
    ['/app/features/branded', '/app/features/branded-domains'],
    ['/app/features/custom-domains', '/app/features/branded-domains'],
    ['/app/features/analytics', '/app/features/link-analytics'],
    ['/app/features/howit', '/app/features/how-it-works'],
    ['/app/features/aboutus', '/app/features/about-us'],
    ['/app/features', '/app/pricing'],
    ['/app/signup?coupon=SPRING', '/app/pricing?coupon=SPRING'],
    ['/app/myurls', '/app/my-urls'],
    ['/app/myurls/clear-history', '/app/my-urls/clear-history'],
    ['/app/analytics/download', '/app'],
  ])('%s leads to %s', async (from, to) => {
    const { router } = renderApp({ route: from });
    await waitFor(() => expect(currentUrl(router)).toBe(to));
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it('opens a section at its default page', async () => {
    const world = signedInWorld({ profile: { is_developer: true } });
    const settings = renderApp({ route: '/app/settings', world });
    await waitFor(() => expect(currentUrl(settings.router)).toBe('/app/settings/profile'));
    settings.unmount();
    const kiosk = renderApp({ route: '/app/kiosk', world });
    await waitFor(() => expect(currentUrl(kiosk.router)).toBe('/app/kiosk/users'));
    // The kiosk's screens live in the kiosk app: the portal hands the same screen over to it.
    await waitFor(() =>
      expect(kiosk.leave).toHaveBeenCalledWith(expect.stringMatching(/\/users$/)),
    );
    kiosk.unmount();
    const team = renderApp({
      route: '/app/organization/acme/team/sales',
      world: signedInWorld({
        accountFeatures: ['support_teams'],
        teamsBySlug: [{ id: 't', name: 'S' }],
      }),
    });
    await waitFor(() =>
      expect(currentUrl(team.router)).toBe('/app/organization/acme/team/sales/profile'),
    );
  });

  it.each([
    ['/app/blog', 'https://blog.shortlane.example/'],
    ['/app/helpdesk', 'https://help.shortlane.example/'],
    ['/app/freescout', 'https://support.shortlane.example/'],
  ])('%s leaves for %s', async (from, url) => {
    const { leave } = renderApp({ route: from });
    await waitFor(() => expect(leave).toHaveBeenCalledWith(url));
    expect(screen.getByRole('link', { name: url })).toHaveAttribute('href', url);
  });
});

describe('coupon memory', () => {
  const storedCoupon = () => window.localStorage.getItem(STORAGE_KEYS.coupon);

  it('remembers a known coupon from any page and keeps it across navigation', async () => {
    const backend = new TestBackend();
    const { router, user } = renderApp({ route: '/app/features/about-us?coupon=SPRING', backend });
    backend.on('POST', '/rest/v1/rpc/find_coupon', () =>
      json([
        {
          code: 'SPRING',
          amount_off: null,
          percent_off: 20,
          currency: 'USD',
          intervals: ['yearly'],
        },
      ]),
    );
    await heading('About us');
    await waitFor(() => expect(storedCoupon()).toBe('SPRING'));

    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Plans' }),
    );
    expect(currentUrl(router)).toBe('/app/pricing');
    expect(
      await screen.findByText('Coupon SPRING: 20% off yearly plans, applied at checkout.'),
    ).toBeInTheDocument();
    expect(storedCoupon()).toBe('SPRING');
  });

  it('forgets a coupon the server does not know', async () => {
    const { backend } = renderApp({ route: '/app/pricing?coupon=NOPE' });
    await heading('Plans and pricing');
    await waitFor(() =>
      expect(backend.requestsTo('POST', '/rest/v1/rpc/find_coupon')).toHaveLength(1),
    );
    await waitFor(() => expect(storedCoupon()).toBeNull());
    // The server's refusal is the answer, not an error to announce.
    expect(screen.queryByText('Not Found')).not.toBeInTheDocument();
  });
});
