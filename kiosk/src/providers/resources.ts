/**
 * How each kiosk resource maps onto the API: the relation its screens read (often a kiosk_*
 * view joining what the screen shows), the table writes go to, its primary key when not `id`,
 * and the columns the list's search box looks in. Resource names follow the spec's routes
 * (/app/kiosk/long-urls, cloudflare/zones…); relation names are the database's.
 */
export interface ResourceMapping {
  /** Table or view lists and pages read. */
  read: string;
  /** Table creates, updates and deletes go to (default: `read`). */
  write?: string;
  /** Primary key columns when not `id` (composite keys become a JSON array id). */
  primaryKey?: readonly string[];
  /** Columns the `q` filter searches (case-insensitive, words in order). */
  search?: readonly string[];
}

export const RESOURCES = {
  users: { read: 'kiosk_users', write: 'profiles', search: ['email', 'name'] },
  aliases: {
    read: 'kiosk_aliases',
    write: 'aliases',
    search: ['alias', 'domain', 'url', 'owner_email'],
  },
  'long-urls': { read: 'kiosk_long_urls', write: 'long_urls', search: ['url', 'owner_email'] },
  alias_clicks: { read: 'click_stats_hourly', primaryKey: ['alias_id', 'hour'] },
  ips: { read: 'ip_blocks', search: ['reason'] },
  password_dictionary: { read: 'password_dictionary', primaryKey: ['word'], search: ['word'] },
  banned_domains: { read: 'banned_domains', search: ['domain', 'reason'] },
  domains: { read: 'kiosk_domains', write: 'domains', search: ['domain', 'account_name'] },
  tld_overprice: { read: 'tld_prices', primaryKey: ['tld'], search: ['tld'] },
  'cloudflare/zones': { read: 'dns_zones', search: ['name'] },
  surveys: { read: 'surveys', search: ['name', 'title'] },
  survey_results: { read: 'kiosk_survey_results' },
  survey_questions: { read: 'survey_questions' },
  announcements: { read: 'announcements', search: ['title', 'body'] },
  'access-invitations': { read: 'access_invitations', search: ['email', 'note'] },
  webhooks: { read: 'kiosk_webhook_endpoints', search: ['url', 'account_name'] },
  'api-tokens': {
    read: 'kiosk_api_tokens',
    search: ['name', 'token_prefix', 'account_name', 'created_by_email'],
  },
  webhook_attempts: { read: 'webhook_attempts' },
  'quote-requests': { read: 'quote_requests', search: ['name', 'email', 'company'] },
  'sso-domains': { read: 'organization_sso_domains' },
  organizations: { read: 'kiosk_organizations', search: ['name', 'slug', 'owner_email'] },
  teams: { read: 'kiosk_teams', search: ['name', 'organization_name', 'owner_email'] },
  organization_users: { read: 'kiosk_organization_users' },
  team_members: { read: 'kiosk_team_members' },
  // The user page's preview switches (staff may read and change every profile).
  profiles: { read: 'profiles' },
  'support-requests': { read: 'support_requests', search: ['subject', 'message'] },
  // A user's billing on their page (users/UserBilling.tsx): staff read these under RLS.
  subscriptions: { read: 'subscriptions' },
  invoices: { read: 'invoices' },
  orders: { read: 'orders' },
} as const satisfies Record<string, ResourceMapping>;

export type ResourceName = keyof typeof RESOURCES;

export function mappingOf(
  resource: string,
  resources: Readonly<Record<string, ResourceMapping>> = RESOURCES,
): ResourceMapping {
  const mapping = resources[resource];
  if (!mapping) throw new Error(`The kiosk has no resource named "${resource}".`);
  return mapping;
}
