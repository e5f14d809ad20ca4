/**
 * The human name of each count option (app-shell 3 "Plan options"), in the order the usage
 * pages list them: links first, then traffic, credits, domains, people. Options missing here are
 * shown by their raw name rather than hidden, so a new option is never silently dropped.
 */
export const USAGE_LABELS: ReadonlyArray<readonly [option: string, label: string]> = [
  ['max_active_aliases', 'Active short links'],
  ['max_aliases', 'Short links in total'],
  ['max_aliases_per_month', 'Short links this month'],
  ['max_branded_aliases_per_month', 'Branded short links this month'],
  ['max_redirects', 'Redirects this month'],
  ['max_trackable_clicks', 'Trackable clicks this month'],
  ['links_with_unlimited_clicks', 'Links with unlimited clicks'],
  ['max_recent_urls', 'Recent links kept'],
  ['max_aliases_per_url', 'Short links per destination'],
  ['max_web_credits', 'Credits'],
  ['max_api_credits', 'API credits'],
  ['max_domains', 'Branded domains'],
  ['max_subdomains', 'Branded subdomains'],
  ['max_domains_subdomains', 'Domains and subdomains together'],
  ['max_vanity_subdomains', 'Vanity subdomains'],
  ['discounted_domain_count', 'Discounted domains'],
  ['max_teams', 'Teams'],
  ['max_members', 'Member seats'],
];

const LABELS = new Map(USAGE_LABELS);
const ORDER = new Map(USAGE_LABELS.map(([option], index) => [option, index]));

export const usageLabel = (option: string): string => LABELS.get(option) ?? option;

/** Known options in the listed order, unknown ones after them by name. */
export function compareOptions(a: string, b: string): number {
  const rank = (option: string) => ORDER.get(option) ?? USAGE_LABELS.length;
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** The bar colour: red from 100 %, orange from 80 %, the theme colour below. */
export function usageColor(percent: number): 'red' | 'orange' | undefined {
  if (percent >= 100) return 'red';
  if (percent >= 80) return 'orange';
  return undefined;
}
