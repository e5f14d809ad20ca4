import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchRoutes, Navigate, useLocation, useParams, type RouteObject } from 'react-router-dom';
import { RootLayout } from '../layout/RootLayout.tsx';
import type { PortalConfig } from '../lib/config.ts';
import { ExternalRedirect } from './ExternalRedirect.tsx';
import { CurrentRouteContext } from './currentRoute.ts';
import type { Guard } from './access.ts';
import type { FirstRequestContext } from './firstRequests.ts';
import { RouteGuard } from './guards.tsx';
import { href, paths, type RouteName, type RouteParams } from './paths.ts';

/** What a route shows: its page, whose code is fetched on first visit. */
interface Screen {
  component: LazyExoticComponent<ComponentType>;
  /** Fetches the page's code (the same request the component makes when it renders). */
  preload: () => Promise<unknown>;
  /**
   * The page module's `Prefetch`, if it has one: rendered while the guard waits for the
   * account, so the page's first requests start then instead of after it.
   */
  prefetch: LazyExoticComponent<ComponentType>;
  /** The page module's `prefetchData`, if it has one (see FirstRequestContext). */
  prefetchData: (context: FirstRequestContext) => Promise<void>;
}

export interface PageRoute {
  name: RouteName;
  guards: readonly Guard[];
  screen: Screen;
}

/** A loader run at most once: a preload and the lazy component share one request. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= load());
}

/** What a page module exports: the page, and optionally what to fetch before it may render. */
interface PageModule {
  default: ComponentType;
  Prefetch?: ComponentType;
  /**
   * What the page asks first, asked from the entry before React renders (firstRequests.ts):
   * the same queries its components make, so they find them under way or answered.
   */
  prefetchData?: (context: FirstRequestContext) => Promise<void>;
}

const NoPrefetch = () => null;

const page = (load: () => Promise<PageModule>): Screen => {
  const preload = once(load);
  return {
    component: lazy(preload),
    preload,
    prefetch: lazy(() => preload().then((module) => ({ default: module.Prefetch ?? NoPrefetch }))),
    prefetchData: (context) => preload().then((module) => module.prefetchData?.(context)),
  };
};

// Each page module is loaded on first visit; pages that serve several routes read which one
// from CurrentRouteContext.
const HomePage = page(() => import('../pages/HomePage/HomePage.tsx'));
const PurchaseDomainPage = page(() => import('../features/domain-purchase/PurchaseDomainPage.tsx'));
const CartPage = page(() => import('../features/domain-purchase/CartPage.tsx'));
const LoginPage = page(() => import('../pages/LoginPage/LoginPage.tsx'));
const PricingPage = page(() => import('../pages/PricingPage/PricingPage.tsx'));
const FeaturePage = page(() => import('../pages/FeaturePage/FeaturePage.tsx'));
const LegalPage = page(() => import('../pages/LegalPage/LegalPage.tsx'));
const SalePage = page(() => import('../pages/SalePage/SalePage.tsx'));
const CareersPage = page(() => import('../pages/CareersPage/CareersPage.tsx'));
// The API reference and its OpenAPI document: their own chunk, fetched only on /app/dev.
const DevPage = page(() => import('../features/api-docs/DevPage.tsx'));
const SubscriptionPage = page(() => import('../features/billing/SubscriptionPage.tsx'));
const SubscriptionSuccessPage = page(
  () => import('../features/billing/SubscriptionSuccessPage.tsx'),
);
// API tokens (features/api-tokens), one set of pages for the user's and a team's tokens.
const ApiTokensPage = page(() => import('../features/api-tokens/ApiTokensPage.tsx'));
const NewApiTokenPage = page(() => import('../features/api-tokens/NewApiTokenPage.tsx'));
const EditApiTokenPage = page(() => import('../features/api-tokens/EditApiTokenPage.tsx'));
// Branded domains (features/branded-domains): the list serves settings and the organization.
const DomainsPage = page(() => import('../features/branded-domains/DomainsPage.tsx'));
const AddDomainPage = page(() => import('../features/branded-domains/AddDomainPage.tsx'));
// Impersonation (features/impersonation): the kiosk's hand-over, and "Back To My Account".
const StartImpersonationPage = page(
  () => import('../features/impersonation/StartImpersonationPage.tsx'),
);
const StopImpersonatingPage = page(
  () => import('../features/impersonation/StopImpersonatingPage.tsx'),
);
// Billing documents (features/billing-documents): one page per screen for every scope.
const PaymentMethodPage = page(() => import('../features/billing-documents/PaymentMethodPage.tsx'));
const InvoicesPage = page(() => import('../features/billing-documents/InvoicesPage.tsx'));
const OrdersPage = page(() => import('../features/billing-documents/OrdersPage.tsx'));
const OrderPage = page(() => import('../features/billing-documents/OrderPage.tsx'));
// The settings sidebars: loaded with the first settings page, not with the first page.
const loadSettingsLayout = once(() =>
  import('../features/settings/SettingsLayout.tsx').then((module) => ({
    default: module.SettingsLayout,
  })),
);
const SettingsLayout = lazy(loadSettingsLayout);

const LOGIN = ['login'] as const;
const GUEST = ['guest'] as const;
const SECOND_FACTOR = ['secondFactor'] as const;
const TEAM = ['login', 'teams', 'teamExists'] as const;
const DEVELOPER = ['login', 'developer'] as const;
const ORGANIZATIONS = ['login', 'organizations'] as const;
const PUBLIC = [] as const;

/** Every page of app-shell 2 with its guards. Screens of later issues say what they will be. */
export const PAGE_ROUTES: readonly PageRoute[] = [
  // --- Public and general ---
  { name: 'homepage', guards: PUBLIC, screen: HomePage },
  {
    name: 'dashboard',
    guards: LOGIN,
    screen: page(() => import('../pages/DashboardPage/DashboardPage.tsx')),
  },
  {
    name: 'analytics',
    guards: PUBLIC,
    screen: page(() => import('../pages/AnalyticsPage/AnalyticsPage.tsx')),
  },
  // Public: a guest who follows an invitation mail sees it, then signs up or logs in.
  {
    name: 'invitation',
    guards: PUBLIC,
    screen: page(() => import('../features/organization/InvitationLinkPage.tsx')),
  },
  {
    name: 'bulk.job',
    guards: LOGIN,
    screen: page(() => import('../features/bulk/BulkJobPage.tsx')),
  },
  {
    name: 'notifications',
    guards: LOGIN,
    screen: page(() => import('../pages/NotificationsPage/NotificationsPage.tsx')),
  },
  {
    name: 'unsubscribe',
    guards: PUBLIC,
    screen: page(() => import('../features/mailings/UnsubscribePage.tsx')),
  },
  {
    name: 'my-urls',
    guards: GUEST,
    screen: page(() => import('../pages/MyUrlsPage/MyUrlsPage.tsx')),
  },
  {
    name: 'my-urls.clear-history',
    guards: GUEST,
    screen: page(() => import('../pages/MyUrlsPage/ClearHistoryPage.tsx')),
  },
  {
    name: 'affiliateOptionPop',
    guards: PUBLIC,
    screen: page(() => import('../features/affiliate/AffiliateLinkPage.tsx')),
  },
  {
    name: 'help',
    guards: PUBLIC,
    screen: page(() => import('../features/help/HelpPage.tsx')),
  },
  {
    name: 'purchase-domains',
    guards: LOGIN,
    screen: PurchaseDomainPage,
  },
  { name: 'signup.pricing', guards: PUBLIC, screen: PricingPage },
  {
    name: 'pricing.old',
    guards: LOGIN,
    screen: page(() => import('../features/pricing-old/PreviousPlansPage.tsx')),
  },
  {
    name: 'pricing.quote',
    guards: PUBLIC,
    screen: page(() => import('../features/quotes/QuoteRequestPage.tsx')),
  },
  { name: 'bf2023', guards: PUBLIC, screen: SalePage },
  { name: 'cm2023', guards: PUBLIC, screen: SalePage },
  { name: 'features.linkManagement', guards: PUBLIC, screen: FeaturePage },
  { name: 'features.customLinks', guards: PUBLIC, screen: FeaturePage },
  { name: 'features.brandedDomains', guards: PUBLIC, screen: FeaturePage },
  { name: 'features.linkAnalytics', guards: PUBLIC, screen: FeaturePage },
  { name: 'features.freeDomains', guards: PUBLIC, screen: FeaturePage },
  { name: 'features.howItWorks', guards: PUBLIC, screen: FeaturePage },
  { name: 'features.aboutUs', guards: PUBLIC, screen: FeaturePage },
  { name: 'dev', guards: PUBLIC, screen: DevPage },
  { name: 'terms', guards: PUBLIC, screen: LegalPage },
  { name: 'cookies', guards: PUBLIC, screen: LegalPage },
  { name: 'privacy', guards: PUBLIC, screen: LegalPage },
  { name: 'dataProcessingAgreement', guards: PUBLIC, screen: LegalPage },
  { name: 'enterpriseTerms', guards: PUBLIC, screen: LegalPage },
  { name: 'serviceLevelAgreement', guards: PUBLIC, screen: LegalPage },
  { name: 'supplementalTerms', guards: PUBLIC, screen: LegalPage },
  { name: 'careers.fullstackDeveloper', guards: PUBLIC, screen: CareersPage },

  // --- Outside the /app prefix ---
  {
    name: 'preview.deprecated',
    guards: PUBLIC,
    screen: page(() => import('../pages/PreviewPage/PreviewPage.tsx')),
  },
  {
    name: 'user.vatinfo',
    guards: PUBLIC,
    screen: page(() => import('../features/billing-documents/VatInfoPage.tsx')),
  },
  {
    name: 'paddle.payment',
    guards: PUBLIC,
    screen: page(() => import('../features/billing/PaddlePaymentPage.tsx')),
  },

  // --- Authentication ---
  { name: 'login', guards: GUEST, screen: LoginPage },
  {
    name: 'login.2fa.verify',
    guards: SECOND_FACTOR,
    screen: page(() => import('../pages/LoginPage/TwoFactorVerifyPage.tsx')),
  },
  {
    name: 'login.2fa.backupCode',
    guards: SECOND_FACTOR,
    screen: page(() => import('../pages/LoginPage/BackupCodePage.tsx')),
  },
  {
    name: 'register',
    guards: GUEST,
    screen: page(() => import('../pages/RegisterPage/RegisterPage.tsx')),
  },
  {
    name: 'password.reset',
    guards: GUEST,
    screen: page(() => import('../pages/PasswordResetPage/PasswordResetRequestPage.tsx')),
  },
  // Public: the page itself sends signed-in users home, except the recovery session a reset
  // link brings (the guest-only guard would send that one away too).
  {
    name: 'password.reset.token',
    guards: PUBLIC,
    screen: page(() => import('../pages/PasswordResetPage/PasswordResetPage.tsx')),
  },
  // Login required, which the page checks itself: a guest arriving by a mail link (its token,
  // or the failure Auth sent back) must be able to use or renew that link.
  {
    name: 'email_verify',
    guards: PUBLIC,
    screen: page(() => import('../pages/VerifyEmailPage/VerifyEmailPage.tsx')),
  },
  {
    name: 'deleted',
    guards: GUEST,
    screen: page(() => import('../pages/DeletedPage/DeletedPage.tsx')),
  },
  {
    name: 'get-started',
    guards: LOGIN,
    screen: page(() => import('../pages/GetStartedPage/GetStartedPage.tsx')),
  },
  {
    name: 'domain-upsell',
    guards: LOGIN,
    screen: page(() => import('../pages/DomainUpsellPage/DomainUpsellPage.tsx')),
  },
  {
    name: 'domain-purchase-verification',
    guards: LOGIN,
    screen: page(
      () => import('../pages/DomainPurchaseVerificationPage/DomainPurchaseVerificationPage.tsx'),
    ),
  },
  {
    name: 'subscription.past_due',
    guards: ['login', 'pastDue'],
    screen: page(() => import('../features/billing-documents/PastDuePage.tsx')),
  },

  // --- Settings ---
  ...settingsRoutes(),
  // --- Purchase and cart ---
  // Domain purchase (features/domain-purchase).
  { name: 'purchase.domain', guards: LOGIN, screen: PurchaseDomainPage },
  { name: 'purchase.domain.cart', guards: LOGIN, screen: CartPage },
  { name: 'shopping-cart', guards: LOGIN, screen: CartPage },
  {
    name: 'shopping-cart.verify',
    guards: LOGIN,
    screen: page(() => import('../features/domain-purchase/PurchaseSuccessPage.tsx')),
  },
  // --- Team area, organizations, kiosk ---
  ...teamRoutes(),
  ...organizationRoutes(),
  ...kioskRoutes(),
];

function settingsRoutes(): PageRoute[] {
  const verified = ['login', 'verified'] as const;
  return [
    {
      name: 'settings.profile',
      guards: LOGIN,
      screen: page(() => import('../features/settings/ProfilePage.tsx')),
    },
    {
      name: 'settings.profile.delete',
      guards: LOGIN,
      screen: page(() => import('../features/settings/DeleteAccountPage.tsx')),
    },
    {
      name: 'settings.webhooks',
      guards: ['login', 'verified'] as const,
      screen: page(() => import('../features/webhooks/WebhooksPage.tsx')),
    },
    {
      name: 'settings.security',
      guards: LOGIN,
      screen: page(() => import('../pages/SecurityPage/SecurityPage.tsx')),
    },
    // Billing documents (features/billing-documents): orders, payment method, invoices.
    { name: 'shopping-cart.orders', guards: LOGIN, screen: OrdersPage },
    { name: 'shopping-cart.orders.order', guards: LOGIN, screen: OrderPage },
    { name: 'shopping-cart.orders.order.notification', guards: LOGIN, screen: OrderPage },
    // API tokens (features/api-tokens): the same pages serve the team routes below.
    { name: 'settings.api', guards: verified, screen: ApiTokensPage },
    { name: 'settings.api.new', guards: verified, screen: NewApiTokenPage },
    { name: 'settings.api.edit', guards: verified, screen: EditApiTokenPage },
    // Branded domains (features/branded-domains): ?account= picks a team's or organization's.
    { name: 'settings.brandedDomains', guards: LOGIN, screen: DomainsPage },
    { name: 'settings.brandedDomains.create', guards: LOGIN, screen: AddDomainPage },
    {
      name: 'settings.brandedDomains.createSubdomain',
      guards: LOGIN,
      screen: page(() => import('../features/branded-domains/CreateSubdomainPage.tsx')),
    },
    {
      name: 'settings.brandedDomains.createTiny',
      guards: LOGIN,
      screen: page(() => import('../features/branded-domains/CreateTinyPage.tsx')),
    },
    {
      name: 'settings.brandedDomains.verify',
      guards: LOGIN,
      screen: page(() => import('../features/branded-domains/VerifyDomainPage.tsx')),
    },
    {
      name: 'settings.brandedDomains.edit',
      guards: LOGIN,
      screen: page(() => import('../features/branded-domains/EditDomainPage.tsx')),
    },
    {
      name: 'settings.pixelScripts',
      guards: verified,
      screen: page(() => import('../features/pixels/PixelScriptsPage.tsx')),
    },
    {
      name: 'settings.usage',
      guards: LOGIN,
      screen: page(() => import('../features/usage/AccountUsagePage.tsx')),
    },
    // The subscription screens of every scope (features/billing): one page module reading the
    // route's name and parameters.
    { name: 'settings.subscription', guards: LOGIN, screen: SubscriptionPage },
    { name: 'settings.subscription.success', guards: LOGIN, screen: SubscriptionSuccessPage },
    { name: 'settings.subscription.cancel', guards: LOGIN, screen: SubscriptionPage },
    {
      name: 'settings.subscription.update.verification',
      guards: LOGIN,
      screen: SubscriptionPage,
    },
    { name: 'settings.subscription.update', guards: LOGIN, screen: SubscriptionPage },
    { name: 'settings.paymentMethod', guards: LOGIN, screen: PaymentMethodPage },
    { name: 'settings.invoices', guards: LOGIN, screen: InvoicesPage },
    {
      name: 'settings.teams',
      guards: ['login', 'teams'],
      screen: page(() => import('../features/teams/TeamsSettingsPage.tsx')),
    },
  ];
}

function teamRoutes(): PageRoute[] {
  // The team pages (features/teams) inside the team settings layout.
  const TeamProfilePage = page(() => import('../features/teams/TeamProfilePage.tsx'));
  const TeamMembershipPage = page(() => import('../features/teams/TeamMembershipPage.tsx'));
  const TeamUsagePage = page(() => import('../features/teams/TeamUsagePage.tsx'));
  return [
    {
      name: 'team.switch',
      guards: ['login', 'teams'],
      screen: page(() => import('../features/teams/TeamSwitchPage.tsx')),
    },
    { name: 'team.profile', guards: TEAM, screen: TeamProfilePage },
    { name: 'team.membership', guards: TEAM, screen: TeamMembershipPage },
    {
      name: 'team.sso',
      guards: TEAM,
      screen: page(() => import('../features/sso/TeamSsoPage.tsx')),
    },
    { name: 'team.api', guards: TEAM, screen: ApiTokensPage },
    { name: 'team.api.new', guards: TEAM, screen: NewApiTokenPage },
    { name: 'team.api.edit', guards: TEAM, screen: EditApiTokenPage },
    { name: 'team.usage', guards: TEAM, screen: TeamUsagePage },
    { name: 'team.subscription', guards: TEAM, screen: SubscriptionPage },
    { name: 'team.subscription.success', guards: TEAM, screen: SubscriptionSuccessPage },
    { name: 'team.subscription.cancel', guards: TEAM, screen: SubscriptionPage },
    { name: 'team.subscription.update', guards: TEAM, screen: SubscriptionPage },
    { name: 'team.paymentMethod', guards: TEAM, screen: PaymentMethodPage },
    { name: 'team.invoices', guards: TEAM, screen: InvoicesPage },
  ];
}

function organizationRoutes(): PageRoute[] {
  const OrganizationLinksPage = page(
    () => import('../features/links/list/OrganizationLinksPage.tsx'),
  );
  return [
    {
      name: 'org.onboarding',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/OnboardingPage.tsx')),
    },
    {
      name: 'org.root',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/OrganizationLandingPage.tsx')),
    },
    // The organization's link lists (features/links/list), one page for the three routes.
    { name: 'org.dashboard', guards: ORGANIZATIONS, screen: OrganizationLinksPage },
    { name: 'org.me', guards: ORGANIZATIONS, screen: OrganizationLinksPage },
    { name: 'org.team', guards: ORGANIZATIONS, screen: OrganizationLinksPage },
    {
      name: 'org.helpdesk',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/HelpdeskPage.tsx')),
    },
    {
      name: 'org.audit',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/audit/AuditTrailPage.tsx')),
    },
    {
      name: 'org.settings.profile',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/OrganizationProfilePage.tsx')),
    },
    {
      name: 'org.settings.users',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/OrganizationUsersPage.tsx')),
    },
    {
      name: 'org.settings.roles',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/RolesPage.tsx')),
    },
    {
      name: 'org.settings.sso',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/sso/SsoSettingsPage.tsx')),
    },
    { name: 'org.settings.domains', guards: ORGANIZATIONS, screen: DomainsPage },
    { name: 'org.settings.subscription', guards: ORGANIZATIONS, screen: SubscriptionPage },
    {
      name: 'org.settings.subscription.success',
      guards: ORGANIZATIONS,
      screen: SubscriptionSuccessPage,
    },
    { name: 'org.settings.subscription.cancel', guards: ORGANIZATIONS, screen: SubscriptionPage },
    { name: 'org.settings.subscription.update', guards: ORGANIZATIONS, screen: SubscriptionPage },
    { name: 'org.settings.payment', guards: ORGANIZATIONS, screen: PaymentMethodPage },
    // The organization's team settings (features/organization/teams).
    {
      name: 'org.settings.teams',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/teams/OrganizationTeamsPage.tsx')),
    },
    {
      name: 'org.settings.teams.members',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/teams/OrganizationTeamMembersPage.tsx')),
    },
    {
      name: 'org.settings.teams.domains',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/branded-domains/TeamDomainsPage.tsx')),
    },
    {
      name: 'org.settings.teams.api',
      guards: ORGANIZATIONS,
      screen: page(() => import('../features/organization/teams/OrganizationTeamApiPage.tsx')),
    },
  ];
}

function kioskRoutes(): PageRoute[] {
  // Staff work in the kiosk app: each of these leads to the same screen there.
  const KioskHandOffPage = page(() => import('../features/kiosk/KioskHandOffPage.tsx'));
  const kiosk = (name: RouteName, _title: string, _summary: string): PageRoute => ({
    name,
    guards: DEVELOPER,
    screen: KioskHandOffPage,
  });
  return [
    kiosk('kiosk.accessInvitations', 'Access invitations', 'Invitations to join the product.'),
    kiosk('kiosk.announcements', 'Announcements', 'Write and publish announcements.'),
    kiosk('kiosk.users', 'Users', 'Find users, their plans and status.'),
    kiosk('kiosk.user', 'User', 'One user: profile, plan, teams, flags.'),
    kiosk('kiosk.aliases', 'Aliases', 'Search and moderate short links.'),
    kiosk('kiosk.alias', 'Alias', 'One short link and its clicks.'),
    kiosk('kiosk.longUrls', 'Long URLs', 'Destinations and their status.'),
    kiosk('kiosk.stats.system', 'System statistics', 'Links, clicks and users over time.'),
    kiosk(
      'kiosk.stats.product',
      'Product statistics',
      'Product-wide figures (links, clicks, plans) over time.',
    ),
    kiosk('kiosk.ips', 'Blocked addresses', 'Block and unblock IP addresses and ranges.'),
    kiosk(
      'kiosk.passwordDictionary',
      'Password dictionary',
      'Words refused as passwords at sign-up and change.',
    ),
    kiosk('kiosk.cloudflareZones', 'DNS zones', 'The DNS zones behind our domains.'),
    kiosk('kiosk.surveys', 'Surveys', 'Surveys, their questions and a summary of answers.'),
    kiosk('kiosk.survey', 'Survey', 'One survey: questions and answers.'),
    kiosk('kiosk.domains', 'Domains', 'Every domain with its flags for guests and subscribers.'),
    kiosk('kiosk.domain', 'Domain', 'One domain: flags, verification and blocking.'),
    kiosk('kiosk.bannedDomains', 'Banned domains', 'Destinations refused at creation.'),
    kiosk('kiosk.tldOverprice', 'TLD prices', 'Extra charges by top-level domain.'),
    // The kiosk's hand-over works signed in (the staff member's own session is kept aside) or not.
    { name: 'kiosk.user.impersonate', guards: PUBLIC, screen: StartImpersonationPage },
    // Public too: an impersonation that expired still has a saved session to restore.
    { name: 'kiosk.user.stopImpersonating', guards: PUBLIC, screen: StopImpersonatingPage },
  ];
}

type RedirectTarget = {
  [Name in RouteName]: { to: Name; params?: (keyof RouteParams<Name>)[] };
}[RouteName];

/** Old and shorthand paths that lead to a named route (query string kept, e.g. a coupon). */
export const REDIRECTS: readonly { from: RouteName; target: RedirectTarget }[] = [
  { from: 'analytics.download', target: { to: 'homepage' } },
  { from: 'myurls', target: { to: 'my-urls' } },
  { from: 'myurls.clear-history', target: { to: 'my-urls.clear-history' } },
  { from: 'signup', target: { to: 'signup.pricing' } },
  { from: 'features', target: { to: 'signup.pricing' } },
  { from: 'features.old.branded', target: { to: 'features.brandedDomains' } },
  { from: 'features.old.customDomains', target: { to: 'features.brandedDomains' } },
  { from: 'features.old.analytics', target: { to: 'features.linkAnalytics' } },
  { from: 'features.old.howit', target: { to: 'features.howItWorks' } },
  { from: 'features.old.howTinyurlWorks', target: { to: 'features.howItWorks' } },
  { from: 'features.old.aboutus', target: { to: 'features.aboutUs' } },
  { from: 'settings', target: { to: 'settings.profile' } },
  { from: 'purchase', target: { to: 'purchase.domain' } },
  { from: 'team', target: { to: 'team.profile', params: ['org', 'team'] } },
  { from: 'organizations', target: { to: 'org.onboarding' } },
  { from: 'kiosk', target: { to: 'kiosk.users' } },
];

/** Paths that leave the app for another site. */
export const EXTERNAL_REDIRECTS: readonly {
  from: RouteName;
  site: keyof PortalConfig['externalUrls'];
}[] = [
  { from: 'helpdesk', site: 'helpdesk' },
  { from: 'freescout', site: 'freescout' },
  { from: 'blog', site: 'blog' },
];

function RedirectTo({ target }: { target: RedirectTarget }) {
  const params = useParams();
  const { search } = useLocation();
  const values = Object.fromEntries((target.params ?? []).map((key) => [key, params[key]]));
  // The target's parameters were checked by RedirectTarget's type; href re-checks them.
  const path = (href as (name: RouteName, params: Record<string, string | undefined>) => string)(
    target.to,
    values,
  );
  return <Navigate to={path + search} replace />;
}

function routeElement(route: PageRoute) {
  const outsidePrefix = !paths[route.name].startsWith('/app');
  const screen = route.screen;
  return (
    <CurrentRouteContext value={route.name}>
      <RouteGuard
        route={{ name: route.name, guards: route.guards, outsidePrefix }}
        prefetch={screen.prefetch}
      >
        <screen.component />
      </RouteGuard>
    </CurrentRouteContext>
  );
}

/** What a route object carries for preloadPageAt: how to fetch the code it renders. */
interface RouteHandle {
  preload: () => Promise<unknown>;
  prefetchData?: (context: FirstRequestContext) => Promise<void>;
}

const pageRouteObject = (route: PageRoute): RouteObject => ({
  path: paths[route.name],
  element: routeElement(route),
  handle: {
    preload: route.screen.preload,
    prefetchData: route.screen.prefetchData,
  } satisfies RouteHandle,
});

const isSettingsRoute = (route: PageRoute) => paths[route.name].startsWith(`${paths.settings}/`);

/** The route objects for react-router: pages, redirects, and "unknown paths go home". */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // The settings pages share their sidebars: a layout route that stays while they change.
      {
        element: <SettingsLayout />,
        handle: { preload: loadSettingsLayout } satisfies RouteHandle,
        children: PAGE_ROUTES.filter(isSettingsRoute).map(pageRouteObject),
      },
      ...PAGE_ROUTES.filter((route) => !isSettingsRoute(route)).map(pageRouteObject),
      ...REDIRECTS.map(({ from, target }) => ({
        path: paths[from],
        element: <RedirectTo target={target} />,
      })),
      ...EXTERNAL_REDIRECTS.map(({ from, site }) => ({
        path: paths[from],
        element: <ExternalRedirect site={site} />,
      })),
      { path: '*', element: <Navigate to={paths.homepage} replace /> },
    ],
  },
];

/**
 * Starts fetching the code of the page at `pathname` (and of its layout) at once, beside the
 * session and the account: without it the page's chunk is only asked for once its guard lets it
 * render, a round trip after everything else the first screen waits for.
 */
export function preloadPageAt(pathname: string): void {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const handle = match.route.handle as RouteHandle | undefined;
    // A failed fetch is the lazy component's to report (its error boundary), not this one's.
    handle?.preload().catch(() => {});
  }
}

/** The first requests of the page at `pathname`, if its module names some (its prefetchData). */
export async function prefetchDataAt(
  pathname: string,
  context: FirstRequestContext,
): Promise<void> {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const handle = match.route.handle as RouteHandle | undefined;
    await handle?.prefetchData?.(context);
  }
}
