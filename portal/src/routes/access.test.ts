import {
  PAST_DUE_ALLOWED_ROUTES,
  PAST_DUE_TRIAL_ALLOWED_ROUTES,
} from '@shortlane/shared/subscriptions.ts';
import { describe, expect, it } from 'vitest';
import type { OrganizationSummary } from '../data/organizations-query.ts';
import type { SubscriptionRow } from '../data/subscriptions-query.ts';
import type { TeamSummary } from '../data/teams-query.ts';
import { buildViewer, type Viewer } from '../state/appState.ts';
import { pastDueRow, pastDueTrialRow, subscriptionRow, TEST_PLANS } from '../test/world.ts';
import { decideAccess, homeRouteFor, type AccessInput, type Guard } from './access.ts';
import { paths, type RouteName } from './paths.ts';

const NOW = '2026-11-22T12:00:00Z';

function viewer({
  subscriptions = [],
  verified = true,
  developer = false,
  accountFeatures = [],
  previewFeatures = [],
  teams = [],
  organizations = [],
}: {
  subscriptions?: SubscriptionRow[];
  verified?: boolean;
  developer?: boolean;
  accountFeatures?: string[];
  previewFeatures?: readonly string[];
  teams?: readonly TeamSummary[];
  organizations?: readonly OrganizationSummary[];
} = {}): Viewer {
  return buildViewer({
    userId: 'u1',
    email: 'ada@example.com',
    emailConfirmedAt: verified ? '2026-01-01T00:00:00Z' : null,
    profile: {
      id: 'u1',
      email: 'ada@example.com',
      name: 'Ada',
      photo_url: null,
      is_developer: developer,
      is_survey_enabled: true,
      personal_account_id: 'a1',
      current_team_id: null,
      team_mode: false,
      preview_features: [...previewFeatures],
    },
    account: { id: 'a1', kind: 'personal', name: 'Ada', features: accountFeatures },
    subscriptions,
    plans: TEST_PLANS,
    teams,
    organizations,
    teamFeatures: null,
    claims: { impersonator: null },
    now: NOW,
  });
}

function decide(
  name: RouteName,
  guards: readonly Guard[],
  who: Viewer | 'guest' | 'loading',
  extra: Partial<AccessInput> = {},
) {
  return decideAccess({
    route: { name, guards },
    authStatus: who === 'guest' ? 'guest' : who === 'loading' ? 'loading' : 'signedIn',
    state: {
      status: who === 'loading' ? 'loading' : 'ready',
      viewer: typeof who === 'object' ? who : null,
    },
    target: paths[name],
    ...extra,
  });
}

const allow = { kind: 'allow' };

describe('decideAccess', () => {
  it('waits while the session is unknown, whatever the route', () => {
    expect(decide('homepage', [], 'loading')).toEqual({ kind: 'wait' });
    expect(decide('login', ['guest'], 'loading')).toEqual({ kind: 'wait' });
  });

  it('waits for a signed-in user whose account is loading, and reports a failed load', () => {
    const input = (status: 'loading' | 'error'): AccessInput => ({
      route: { name: 'dashboard', guards: ['login'] },
      authStatus: 'signedIn',
      state: { status, viewer: null },
      target: '/app/dashboard',
    });
    expect(decideAccess(input('loading'))).toEqual({ kind: 'wait' });
    expect(decideAccess(input('error'))).toEqual({ kind: 'error' });
  });

  it('lets anyone open a public page', () => {
    expect(decide('signup.pricing', [], 'guest')).toEqual(allow);
    expect(decide('signup.pricing', [], viewer())).toEqual(allow);
  });

  describe('guests only', () => {
    it('lets a guest in', () => expect(decide('login', ['guest'], 'guest')).toEqual(allow));

    it('sends a signed-in user to the homepage', () => {
      expect(decide('register', ['guest'], viewer())).toEqual({ kind: 'redirect', to: '/app' });
    });

    it('sends a signed-in user on to a safe "to" target, never to an unsafe one', () => {
      const to = (target: string) =>
        decide('login', ['guest'], viewer(), {
          target: `/app/login?to=${encodeURIComponent(target)}`,
        });
      expect(to('/app/settings/profile?tab=1')).toEqual({
        kind: 'redirect',
        to: '/app/settings/profile?tab=1',
      });
      expect(to('https://evil.example/app')).toEqual({ kind: 'redirect', to: '/app' });
    });
  });

  describe('login', () => {
    it('sends a guest to login with the page, query included, in "to"', () => {
      expect(
        decide('settings.profile', ['login'], 'guest', {
          target: '/app/settings/profile?coupon=X',
        }),
      ).toEqual({ kind: 'redirect', to: '/app/login?to=%2Fapp%2Fsettings%2Fprofile%3Fcoupon%3DX' });
    });

    it.each([['verified'], ['teams'], ['developer'], ['teamExists']] as const)(
      'is implied by the %s guard',
      (guard) => {
        expect(decide('settings.api', [guard], 'guest')).toMatchObject({
          kind: 'redirect',
          to: expect.stringMatching(/^\/app\/login\?to=/),
        });
      },
    );

    it('lets a signed-in user in', () => {
      expect(decide('settings.profile', ['login'], viewer())).toEqual(allow);
    });
  });

  describe('verified or subscribed', () => {
    it('sends an unverified free user to e-mail verification', () => {
      expect(decide('settings.api', ['login', 'verified'], viewer({ verified: false }))).toEqual({
        kind: 'redirect',
        to: '/app/email/verify',
      });
    });

    it('lets a verified user in', () => {
      expect(decide('settings.api', ['login', 'verified'], viewer())).toEqual(allow);
    });

    it('lets an unverified subscriber in', () => {
      const subscriber = viewer({ verified: false, subscriptions: [subscriptionRow()] });
      expect(decide('settings.api', ['login', 'verified'], subscriber)).toEqual(allow);
    });
  });

  describe('teams allowed', () => {
    it('sends a user without support_teams to the homepage', () => {
      expect(decide('settings.teams', ['login', 'teams'], viewer())).toEqual({
        kind: 'redirect',
        to: '/app',
      });
    });

    it('lets in a user whose plan or account has support_teams', () => {
      const byAccount = viewer({ accountFeatures: ['support_teams'] });
      const byPlan = viewer({
        subscriptions: [subscriptionRow({ price: { features: ['support_teams'] } })],
      });
      expect(decide('settings.teams', ['login', 'teams'], byAccount)).toEqual(allow);
      expect(decide('settings.teams', ['login', 'teams'], byPlan)).toEqual(allow);
    });
  });

  describe('team exists', () => {
    const teamsViewer = viewer({ accountFeatures: ['support_teams'] });
    const team = (presence: AccessInput['team']) =>
      decide('team.profile', ['login', 'teams', 'teamExists'], teamsViewer, { team: presence });

    it('waits for the lookup', () => expect(team('loading')).toEqual({ kind: 'wait' }));

    it('sends an unknown team to the teams settings, saying so', () => {
      expect(team('missing')).toEqual({
        kind: 'redirect',
        to: '/app/settings/teams',
        notice: 'Unknown team.',
      });
    });

    it('lets a known team in', () => expect(team('found')).toEqual(allow));
  });

  describe('developer', () => {
    it('sends a non-developer to the homepage', () => {
      expect(decide('kiosk.users', ['login', 'developer'], viewer())).toEqual({
        kind: 'redirect',
        to: '/app',
      });
    });

    it('lets a developer in', () => {
      expect(decide('kiosk.users', ['login', 'developer'], viewer({ developer: true }))).toEqual(
        allow,
      );
    });
  });

  describe('organizations (a rollout switch, not staff-only)', () => {
    const ORG_GUARDS = ['login', 'organizations'] as const;
    const orgTeam: TeamSummary = {
      id: 't1',
      accountId: 'ta1',
      slug: 'marketing',
      name: 'Marketing',
      role: 'viewer',
      orgSlug: 'acme',
    };
    const acme: OrganizationSummary = {
      id: 'o1',
      slug: 'acme',
      name: 'Acme',
      archived: false,
      isOwner: false,
    };

    it('sends a user who belongs to no organization to the homepage', () => {
      const standalone = { ...orgTeam, orgSlug: '_' };
      expect(decide('org.dashboard', ORG_GUARDS, viewer({ teams: [standalone] }))).toEqual({
        kind: 'redirect',
        to: '/app',
      });
    });

    it.each([
      ['staff', { developer: true }],
      ['the organizations preview feature', { previewFeatures: ['organizations'] }],
      ['an owner or organization user', { organizations: [acme] }],
      ["a member of one of the organization's teams", { teams: [orgTeam] }],
    ] as const)('lets in %s', (_, who) => {
      expect(decide('org.dashboard', ORG_GUARDS, viewer(who))).toEqual(allow);
    });

    it('keeps the kiosk for staff: belonging to an organization is not enough', () => {
      expect(
        decide('kiosk.users', ['login', 'developer'], viewer({ organizations: [acme] })),
      ).toEqual({ kind: 'redirect', to: '/app' });
    });
  });

  describe('past due', () => {
    const trial = viewer({ subscriptions: [pastDueTrialRow()] });
    const paidPastDue = viewer({ subscriptions: [pastDueRow()] });
    const toPastDue = { kind: 'redirect', to: '/app/subscribe' };

    it.each(PAST_DUE_TRIAL_ALLOWED_ROUTES)('lets a past-due trial user open %s', (name) => {
      expect(decide(name, ['login'], trial)).toEqual(allow);
    });

    it.each([
      'homepage',
      'dashboard',
      'settings.profile',
      'settings.invoices',
      'features.aboutUs',
    ] as const)('sends a past-due trial user from %s to the past-due page', (name) =>
      expect(decide(name, [], trial)).toEqual(toPastDue),
    );

    it.each(PAST_DUE_ALLOWED_ROUTES)('lets another past-due user open %s', (name) => {
      expect(decide(name, ['login'], paidPastDue)).toEqual(allow);
    });

    it.each(['homepage', 'dashboard', 'settings.usage', 'shopping-cart'] as const)(
      'sends another past-due user from %s to the past-due page',
      (name) => expect(decide(name, [], paidPastDue)).toEqual(toPastDue),
    );

    it('leaves pages outside /app (the payment page) open', () => {
      expect(
        decideAccess({
          route: { name: 'paddle.payment', guards: [], outsidePrefix: true },
          authStatus: 'signedIn',
          state: { status: 'ready', viewer: trial },
          target: '/paddle/payment',
        }),
      ).toEqual(allow);
    });

    it.each([
      ['a free user', viewer()],
      ['a paid-up user', viewer({ subscriptions: [subscriptionRow()] })],
    ])('keeps %s off the past-due page', (_who, who) => {
      expect(decide('subscription.past_due', ['login', 'pastDue'], who)).toEqual({
        kind: 'redirect',
        to: paths.homepage,
      });
    });

    it('opens the past-due page to either kind of past-due user', () => {
      for (const who of [trial, paidPastDue]) {
        expect(decide('subscription.past_due', ['login', 'pastDue'], who)).toEqual(allow);
      }
    });

    it('resolves home to the page the guard sends the viewer to', () => {
      expect(homeRouteFor(null)).toBe('homepage');
      expect(homeRouteFor(viewer())).toBe('homepage');
      expect(homeRouteFor(trial)).toBe('subscription.past_due');
      expect(homeRouteFor(paidPastDue)).toBe('subscription.past_due');
    });

    it('does not restrict a user whose subscription is in order', () => {
      expect(
        decide('dashboard', ['login'], viewer({ subscriptions: [subscriptionRow()] })),
      ).toEqual(allow);
    });
  });
});
