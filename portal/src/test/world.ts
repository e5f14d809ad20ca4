import type { PlanRow } from '../data/plans-query.ts';
import type { Profile } from '../data/profile-query.ts';
import type { SubscriptionRow } from '../data/subscriptions-query.ts';
import type { AnnouncementRow, NotificationRow } from '../features/notifications/feed.ts';
import { json, tableRows, type TestBackend, type Responder } from './backend.ts';

/**
 * What the database holds for one component test, answered through TestBackend in the shapes
 * the portal's queries select. A world without `user` is a guest's.
 */
export interface TestWorld {
  user?: { id: string; email: string; emailConfirmed?: boolean };
  profile?: Partial<Profile>;
  accountFeatures?: string[];
  subscriptions?: SubscriptionRow[];
  plans?: PlanRow[];
  /** team_members rows with their team, as fetchMyTeams selects them. */
  teamMemberships?: {
    role: string;
    team: {
      id: string;
      slug: string;
      name: string;
      archived_at: null;
      organization: { slug: string } | null;
    };
  }[];
  /** team_members rows of one team with their profiles, as the team pages select them. */
  teamMembers?: {
    user_id: string;
    role: string;
    profile: { name: string; email: string } | null;
  }[];
  /** teams rows answered to a lookup by slug (the team-exists guard). */
  teamsBySlug?: { id: string; name: string; account_id?: string }[];
  organizations?: {
    id: string;
    slug: string;
    name: string;
    /** The organization's account (the create form's domain owner in organization mode). */
    account_id?: string;
    archived_at: string | null;
    account: { owner_id: string } | null;
    organization_users: { user_id: string; role?: { permissions: string[] } | null }[];
  }[];
  /** domains rows as the create form selects them (data/links-create-domains-query.ts). */
  domains?: unknown[];
  /** Adds this many unread notifications to `notifications`. */
  unreadNotifications?: number;
  notifications?: NotificationRow[];
  announcements?: AnnouncementRow[];
  lastReadAnnouncementsAt?: string | null;
  invitations?: {
    id: string;
    email: string;
    source: string;
    created_at: string;
    updated_at?: string;
    team_role?: string | null;
    message?: string | null;
    team: { name: string; slug?: string } | null;
    organization: { name: string; slug?: string; photo_url?: string | null } | null;
    organization_role?: { name: string } | null;
    inviter?: { name: string } | null;
  }[];
  cartQuantity?: number;
  survey?: { id: string; title: string; survey_questions: { count: number }[] } | null;
}

export const TEST_USER_ID = '6d0c4a43-3f4b-4f3e-9a53-0c1f3b7a9e10';
export const ACCOUNT_ID = '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21';

/** rpc/account_analytics's answer for the test account: no clicks unless `report` says so. */
export function accountAnalyticsReport(report: {
  period: string;
  from: string;
  to: string;
  unit: string;
  clicks?: number;
  series?: { time: string; clicks: number }[];
}) {
  return {
    account_id: ACCOUNT_ID,
    clicks: 0,
    bot_clicks: 0,
    qr_clicks: 0,
    series: [],
    countries: [],
    devices: [],
    browsers: [],
    oses: [],
    referrers: [],
    ...report,
  };
}

const priceRow = (
  id: string,
  interval: 'monthly' | 'yearly',
  amount: number,
  features: string[],
) => ({
  id,
  interval,
  amount,
  currency: 'USD',
  features,
  options: { max_aliases_per_month: amount === 0 ? 100 : 5000 },
  active: true,
});

/** Plans shaped like the demo seed's (free, pro, business, enterprise). */
export const TEST_PLANS: PlanRow[] = [
  {
    id: 'plan-free',
    name: 'free',
    group: 'free',
    slide: 0,
    popular: false,
    trial_days: 0,
    trial_available: false,
    prices: [
      priceRow('price-free-m', 'monthly', 0, ['create_tiny_url']),
      priceRow('price-free-y', 'yearly', 0, ['create_tiny_url']),
    ],
  },
  {
    id: 'plan-pro',
    name: 'pro',
    group: 'pro',
    slide: 1,
    popular: true,
    trial_days: 7,
    trial_available: true,
    prices: [
      priceRow('price-pro-m', 'monthly', 1299, ['create_tiny_url', 'use_analytics']),
      priceRow('price-pro-y', 'yearly', 12990, ['create_tiny_url', 'use_analytics']),
    ],
  },
  {
    id: 'plan-enterprise',
    name: 'enterprise',
    group: 'enterprise',
    slide: 3,
    popular: false,
    trial_days: 0,
    trial_available: false,
    prices: [
      priceRow('price-ent-m', 'monthly', 179_900, ['create_tiny_url', 'support_teams']),
      priceRow('price-ent-y', 'yearly', 1_798_800, ['create_tiny_url', 'support_teams']),
    ],
  },
];

/** A subscription row; by default an active yearly Pro bought a month ago. */
export function subscriptionRow(overrides: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    id: 'sub-1',
    name: 'pro',
    interval: 'yearly',
    currency: 'USD',
    ends_at: null,
    trial_ends_at: null,
    period_starts_at: '2026-10-01T00:00:00Z',
    billing_status: 'active',
    updated_at: '2026-10-01T00:00:00Z',
    created_at: '2026-10-01T00:00:00Z',
    price: { features: ['create_tiny_url', 'use_analytics'] },
    ...overrides,
  };
}

/** A past-due trial: past due, with the trial end equal to the period start. */
export function pastDueTrialRow(): SubscriptionRow {
  return subscriptionRow({
    billing_status: 'past_due',
    trial_ends_at: '2026-11-01T00:00:00Z',
    period_starts_at: '2026-11-01T00:00:00Z',
  });
}

/** Past due after a paid period (not a trial). */
export function pastDueRow(): SubscriptionRow {
  return subscriptionRow({
    billing_status: 'past_due',
    trial_ends_at: null,
    period_starts_at: '2026-10-01T00:00:00Z',
  });
}

export function signedInWorld(overrides: Partial<TestWorld> = {}): TestWorld {
  return {
    user: { id: TEST_USER_ID, email: 'ada@example.com', emailConfirmed: true },
    ...overrides,
  };
}

/** The world's notifications, the unread ones it counts included, newest first. */
function notificationRows(world: TestWorld): NotificationRow[] {
  const unread = Array.from({ length: world.unreadNotifications ?? 0 }, (_, index) => ({
    id: `notification-unread-${index + 1}`,
    title: `Notification ${index + 1}`,
    body: null,
    read_at: null,
    created_at: new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - index * 60_000).toISOString(),
  }));
  return [...unread, ...(world.notifications ?? [])];
}

/** Notifications as PostgREST filters them: the unread count asks for `read_at=is.null`. */
function notificationsResponder(rows: readonly NotificationRow[]): Responder {
  return (request, url) =>
    tableRows(
      url.searchParams.get('read_at') === 'is.null' ? rows.filter((row) => !row.read_at) : rows,
    )(request, url);
}

function profileRow(world: TestWorld): Profile {
  const user = world.user!;
  return {
    id: user.id,
    email: user.email,
    name: 'Ada Lovelace',
    photo_url: null,
    is_developer: false,
    is_survey_enabled: false,
    personal_account_id: ACCOUNT_ID,
    current_team_id: null,
    team_mode: false,
    preview_features: [],
    ...world.profile,
  };
}

const rpcNotFound: Responder = () =>
  json(
    { code: 'PT404', message: 'coupon_not_found', details: 'Coupon not found.', hint: 'coupon' },
    { status: 404 },
  );

/** Scripts every read the shell makes, from `world`. */
export function scriptWorld(backend: TestBackend, world: TestWorld): TestBackend {
  backend
    .table('plans', world.plans ?? TEST_PLANS)
    .table('operation_costs', [{ operation: 'create_link', credits: 1 }])
    .table('domains', world.domains ?? [])
    .on('POST', '/rest/v1/rpc/find_coupon', rpcNotFound);
  if (!world.user) return backend;
  return (
    backend
      .table('profiles', () => [
        // The notification feed reads the last-read time from the profile too; read at each
        // request, so a test can move it as mark_announcements_read would.
        { ...profileRow(world), last_read_announcements_at: world.lastReadAnnouncementsAt ?? null },
      ])
      .table('accounts', [
        { id: ACCOUNT_ID, kind: 'personal', name: 'Ada', features: world.accountFeatures ?? [] },
      ])
      .table('subscriptions', world.subscriptions ?? [])
      .table('team_members', world.teamMemberships ?? [])
      // The team pages read one team's members with their profiles; the shell, the user's teams.
      .on('GET', '/rest/v1/team_members', (request, url) =>
        tableRows(
          url.searchParams.get('select')?.includes('profile')
            ? (world.teamMembers ?? [])
            : (world.teamMemberships ?? []),
        )(request, url),
      )
      .table('teams', world.teamsBySlug ?? [])
      .table('organizations', world.organizations ?? [])
      .on('GET', '/rest/v1/notifications', notificationsResponder(notificationRows(world)))
      .on('HEAD', '/rest/v1/notifications', notificationsResponder(notificationRows(world)))
      .table('announcements', world.announcements ?? [])
      .table('invitations', world.invitations ?? [])
      .table(
        'cart_items',
        Array.from({ length: world.cartQuantity ?? 0 }, () => ({})),
      )
      .table('surveys', world.survey ? [world.survey] : [])
  );
}
