/**
 * Named routes: every route name of the spec (app-shell 2, link-creation 2), plus names of ours
 * for the paths the spec lists without one, mapped to their URL patterns. Pages link by name
 * through `href(name, params)`, so a path changes in one place. Patterns use react-router's
 * syntax (`:param`, `:param?` for an optional one).
 */
export const APP_PREFIX = '/app';

export const paths = {
  // --- Public and general ---
  homepage: '/app',
  dashboard: '/app/dashboard',
  analytics: '/app/analytics/:hash',
  'analytics.download': '/app/analytics/download',
  notifications: '/app/notifications',
  unsubscribe: '/app/unsubscribe',
  'my-urls': '/app/my-urls',
  // Not in the spec, which names no page for a bulk import: ours, linked from the bulk result
  // and the batch's notification.
  'bulk.job': '/app/bulk/:jobId',
  // Ours too: where an invitation mail's link leads (the token answers the invitation once).
  invitation: '/app/invitation/:token',
  'my-urls.clear-history': '/app/my-urls/clear-history',
  myurls: '/app/myurls',
  'myurls.clear-history': '/app/myurls/clear-history',
  affiliateOptionPop: '/app/affiliate-link',
  help: '/app/help',
  helpdesk: '/app/helpdesk',
  freescout: '/app/freescout',
  blog: '/app/blog',
  'purchase-domains': '/app/purchase-domains',
  signup: '/app/signup',
  'signup.pricing': '/app/pricing',
  'pricing.old': '/app/pricing/old',
  'pricing.quote': '/app/pricing/quote',
  bf2023: '/app/black-friday-2024',
  cm2023: '/app/cyber-monday-2024',
  features: '/app/features',
  'features.linkManagement': '/app/features/link-management',
  'features.customLinks': '/app/features/custom-links',
  'features.brandedDomains': '/app/features/branded-domains',
  'features.linkAnalytics': '/app/features/link-analytics',
  'features.freeDomains': '/app/features/free-domains',
  // The spec's path names the brand it mirrors; ours is neutral and the old one redirects.
  'features.howItWorks': '/app/features/how-it-works',
  'features.aboutUs': '/app/features/about-us',
  'features.old.branded': '/app/features/branded',
  'features.old.customDomains': '/app/features/custom-domains',
  'features.old.analytics': '/app/features/analytics',
  'features.old.howit': '/app/features/howit',
  'features.old.howTinyurlWorks': '/app/features/how-tinyurl-works',
  'features.old.aboutus': '/app/features/aboutus',
  dev: '/app/dev',
  terms: '/app/terms',
  cookies: '/app/cookies-policy',
  privacy: '/app/privacy-policy',
  dataProcessingAgreement: '/app/data-processing-agreement',
  enterpriseTerms: '/app/enterprise-terms',
  serviceLevelAgreement: '/app/service-level-agreement',
  supplementalTerms: '/app/supplemental-terms',
  'careers.fullstackDeveloper': '/app/careers/fullstack-developer',

  // --- Outside the /app prefix ---
  'preview.deprecated': '/preview/deprecated/:alias?/:addPath?',
  'user.vatinfo': '/user/vatinfo/:encrypted',
  'paddle.payment': '/paddle/payment',

  // --- Authentication ---
  login: '/app/login',
  'login.2fa.verify': '/app/login/2FA/verify',
  'login.2fa.backupCode': '/app/login/2FA/backup_code',
  register: '/app/register',
  'password.reset': '/app/password/reset',
  'password.reset.token': '/app/password/reset/:token',
  email_verify: '/app/email/verify/:userId?/:verification_hash?',
  deleted: '/app/deleted',
  'get-started': '/app/get-started',
  'domain-upsell': '/app/domain-upsell',
  'domain-purchase-verification': '/app/domain-purchase-verification',
  'subscription.past_due': '/app/subscribe',

  // --- Settings ---
  settings: '/app/settings',
  'settings.profile': '/app/settings/profile',
  'settings.profile.delete': '/app/settings/profile/delete',
  'settings.security': '/app/settings/security',
  'shopping-cart.orders': '/app/settings/orders',
  'shopping-cart.orders.order': '/app/settings/order/:orderId',
  'shopping-cart.orders.order.notification': '/app/settings/order/:orderId/notification',
  'settings.api': '/app/settings/api',
  'settings.api.new': '/app/settings/api/new',
  'settings.api.edit': '/app/settings/api/edit/:tokenId',
  'settings.brandedDomains': '/app/settings/branded-domains',
  'settings.brandedDomains.create': '/app/settings/branded-domains/create',
  'settings.brandedDomains.createSubdomain': '/app/settings/create-subdomain',
  'settings.brandedDomains.createTiny': '/app/settings/create-tiny',
  'settings.brandedDomains.verify': '/app/settings/verify',
  'settings.brandedDomains.edit': '/app/settings/edit/:domain',
  'settings.pixelScripts': '/app/settings/pixel-scripts',
  'settings.usage': '/app/settings/usage',
  'settings.webhooks': '/app/settings/webhooks',
  'settings.subscription': '/app/settings/subscription',
  'settings.subscription.success': '/app/settings/subscription/success',
  'settings.subscription.cancel': '/app/settings/subscription/cancel',
  'settings.subscription.update.verification': '/app/settings/subscription/update/verification',
  'settings.subscription.update': '/app/settings/subscription/update/:subscription/:interval',
  'settings.paymentMethod': '/app/settings/payment-method',
  'settings.invoices': '/app/settings/invoices',
  'settings.teams': '/app/settings/teams',

  // --- Purchase and cart ---
  purchase: '/app/purchase',
  'purchase.domain': '/app/purchase/domain',
  'purchase.domain.cart': '/app/purchase/domain/cart',
  'shopping-cart': '/app/shopping-cart',
  // The checkout of a domain purchase returns here; it verifies the order (app-shell 4).
  'shopping-cart.verify': '/app/shopping-cart/success',

  // --- Team area ---
  // {teamPrefix}/{teamId}/switch (app-shell 7): switches team mode to the team.
  'team.switch': '/app/team/:teamId/switch',
  team: '/app/organization/:org/team/:team',
  'team.profile': '/app/organization/:org/team/:team/profile',
  'team.membership': '/app/organization/:org/team/:team/membership',
  'team.sso': '/app/organization/:org/team/:team/sso',
  'team.api': '/app/organization/:org/team/:team/api',
  'team.api.new': '/app/organization/:org/team/:team/api/new',
  'team.api.edit': '/app/organization/:org/team/:team/api/edit/:tokenId',
  'team.usage': '/app/organization/:org/team/:team/usage',
  'team.subscription': '/app/organization/:org/team/:team/subscription',
  'team.subscription.success': '/app/organization/:org/team/:team/subscription/success',
  'team.subscription.cancel': '/app/organization/:org/team/:team/subscription/cancel',
  'team.subscription.update':
    '/app/organization/:org/team/:team/subscription/update/:subscription/:interval',
  'team.paymentMethod': '/app/organization/:org/team/:team/payment-method',
  'team.invoices': '/app/organization/:org/team/:team/invoices',

  // --- Organizations ---
  organizations: '/app/organizations',
  'org.onboarding': '/app/organizations/onboarding',
  // An organization's root: the landing rule picks the page (OrganizationLandingPage).
  'org.root': '/app/organizations/:org',
  'org.dashboard': '/app/organizations/:org/dashboard',
  'org.me': '/app/organizations/:org/me',
  'org.team': '/app/organizations/:org/team/:team',
  'org.helpdesk': '/app/organizations/:org/helpdesk',
  'org.audit': '/app/organizations/:org/audit',
  'org.settings.profile': '/app/organizations/:org/settings/profile',
  'org.settings.users': '/app/organizations/:org/settings/profile/users',
  'org.settings.roles': '/app/organizations/:org/settings/profile/roles',
  'org.settings.sso': '/app/organizations/:org/settings/profile/sso',
  'org.settings.domains': '/app/organizations/:org/settings/profile/domains',
  'org.settings.subscription': '/app/organizations/:org/settings/profile/subscription',
  'org.settings.subscription.success':
    '/app/organizations/:org/settings/profile/subscription/success',
  'org.settings.subscription.cancel':
    '/app/organizations/:org/settings/profile/subscription/cancel',
  'org.settings.subscription.update':
    '/app/organizations/:org/settings/profile/subscription/update/:subscription/:interval',
  'org.settings.payment': '/app/organizations/:org/settings/profile/payment',
  'org.settings.teams': '/app/organizations/:org/settings/teams',
  'org.settings.teams.members': '/app/organizations/:org/settings/teams/members',
  'org.settings.teams.domains': '/app/organizations/:org/settings/teams/domains',
  'org.settings.teams.api': '/app/organizations/:org/settings/teams/api',

  // --- Kiosk (the staff back-office is its own app; these paths keep the spec's links) ---
  kiosk: '/app/kiosk',
  'kiosk.accessInvitations': '/app/kiosk/access-invitations',
  'kiosk.announcements': '/app/kiosk/announcements',
  'kiosk.users': '/app/kiosk/users',
  'kiosk.user': '/app/kiosk/user/:userId',
  'kiosk.user.stopImpersonating': '/app/kiosk/user/stop-impersonating',
  // Where the kiosk opens the portal as a user (features/impersonation).
  'kiosk.user.impersonate': '/app/kiosk/user/impersonate',
  'kiosk.aliases': '/app/kiosk/aliases',
  'kiosk.alias': '/app/kiosk/alias/:domain/:alias',
  'kiosk.longUrls': '/app/kiosk/long-urls',
  'kiosk.stats.system': '/app/kiosk/stats/system/:domain?',
  'kiosk.stats.product': '/app/kiosk/stats/tinyurl',
  'kiosk.ips': '/app/kiosk/ips',
  'kiosk.passwordDictionary': '/app/kiosk/password_dictionary',
  'kiosk.cloudflareZones': '/app/kiosk/cloudflare/zones',
  'kiosk.surveys': '/app/kiosk/surveys',
  'kiosk.survey': '/app/kiosk/surveys/:survey',
  'kiosk.domains': '/app/kiosk/domains',
  'kiosk.domain': '/app/kiosk/domain/:domain',
  'kiosk.bannedDomains': '/app/kiosk/banned_domains',
  'kiosk.tldOverprice': '/app/kiosk/tld_overprice',
} as const;

export type RouteName = keyof typeof paths;
export type RoutePattern<Name extends RouteName> = (typeof paths)[Name];

/** `{ name: string }` for `:name`, `{ name?: string }` for `:name?`. */
type SegmentParam<Segment extends string> = Segment extends `:${infer Name}?`
  ? { [Key in Name]?: string }
  : Segment extends `:${infer Name}`
    ? { [Key in Name]: string }
    : unknown;

type PatternParams<Pattern extends string> = Pattern extends `${infer Head}/${infer Tail}`
  ? SegmentParam<Head> & PatternParams<Tail>
  : SegmentParam<Pattern>;

/** The parameters a route's pattern takes (an empty record when it takes none). */
export type RouteParams<Name extends RouteName> =
  unknown extends PatternParams<RoutePattern<Name>>
    ? Record<string, never>
    : PatternParams<RoutePattern<Name>>;

/** Extra arguments of `href`: the parameters (required when any is), then an optional query. */
type HrefArgs<Name extends RouteName> =
  Record<string, never> extends RouteParams<Name>
    ? [params?: RouteParams<Name> | null, query?: QueryInit]
    : [params: RouteParams<Name>, query?: QueryInit];

type QueryInit = Record<string, string | number | boolean | null | undefined>;

function queryString(query: QueryInit | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value != null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The path of a named route with its parameters filled in (each URL-encoded; optional ones
 * left out when missing) and an optional query string.
 */
export function href<Name extends RouteName>(name: Name, ...[params, query]: HrefArgs<Name>) {
  const values = (params ?? {}) as Record<string, string | undefined>;
  const segments = paths[name].split('/').flatMap((segment) => {
    const match = /^:([\w-]+)(\?)?$/.exec(segment);
    if (!match) return [segment];
    const value = values[match[1]!];
    if (value == null || value === '') {
      if (match[2]) return [];
      throw new Error(`Route ${name} needs the parameter "${match[1]}".`);
    }
    return [encodeURIComponent(value)];
  });
  return segments.join('/') + queryString(query);
}

/** The query parameter carrying where a guest was going when sent to log in. */
export const RETURN_PARAM = 'to';

/** The login page, remembering `target` (a path with its query) to return to afterwards. */
export function loginPathFor(target: string): string {
  return `${paths.login}?${new URLSearchParams({ [RETURN_PARAM]: target })}`;
}

/**
 * `raw` if it is a path inside the app that is safe to send someone to after login, else null.
 * Only same-origin /app paths pass, so a crafted link cannot send a user to another site
 * (`//evil.example`, `/\evil.example`) or loop back to the login page.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw) return null;
  if (!/^\/app(?:[/?#]|$)/.test(raw)) return null;
  if (/[\\\s]/.test(raw) || raw.includes('//')) return null;
  const pathname = raw.split(/[?#]/)[0]!.replace(/\/+$/, '');
  if (pathname === paths.login) return null;
  return raw;
}
