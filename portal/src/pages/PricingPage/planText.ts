import type { BillingInterval } from '@shortlane/shared/constants.ts';
import { formatMoney } from '@shortlane/shared/plans.ts';
import type { PlanPriceRow } from '../../data/plans-query.ts';

/** How the pricing page words plan features (the spec's flag names are for machines). */
export const FEATURE_LABELS: Readonly<Record<string, string>> = {
  create_tiny_url: 'Short links',
  sso: 'Single sign-on (SAML)',
  update_tiny_url: 'Edit your links',
  change_long_url: 'Change where a link leads',
  archive_tiny_url: 'Archive links',
  delete_tiny_url: 'Delete links',
  use_custom_alias: 'Custom aliases',
  use_tags: 'Tags',
  use_analytics: 'Link analytics',
  share_analytics: 'Shareable analytics',
  manage_expiration: 'Link expiry',
  use_bulk: 'Bulk creation from a file',
  use_api: 'REST API',
  use_branded_domains: 'Branded domains',
  add_branded_domains: 'Add your own domains',
  purchase_branded_domains: 'Buy domains',
  add_vanity_subdomains: 'Vanity subdomains',
  domain_root_redirect: 'Domain root redirect',
  domain_404_redirect: 'Domain 404 redirect',
  redirect_routes: 'Smart redirect routes',
  download_logs: 'Click log downloads',
  support_teams: 'Teams and organizations',
  webhooks: 'Webhooks',
  support: 'Priority support',
  dedicated_manager: 'A dedicated manager',
  emergency_phone: 'Emergency phone line',
  uptime_guarantee: 'Uptime guarantee',
};

export function featureLabel(feature: string): string {
  return FEATURE_LABELS[feature] ?? feature.replace(/_/g, ' ');
}

/** "pro" → "Pro", "business-plus" → "Business Plus". */
export function planTitle(name: string): string {
  return name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

const count = new Intl.NumberFormat('en');

/** The plan's headline limits, worded; options a price leaves out (unlimited) say so. */
export function limitLines(price: PlanPriceRow): string[] {
  const options = (price.options ?? {}) as Record<string, unknown>;
  const lines: string[] = [];
  const monthly = options.max_aliases_per_month;
  lines.push(
    typeof monthly === 'number'
      ? `${count.format(monthly)} new links a month`
      : 'Unlimited new links a month',
  );
  const clicks = options.max_trackable_clicks;
  if (typeof clicks === 'number') lines.push(`${count.format(clicks)} tracked clicks`);
  const domains = options.max_domains_subdomains ?? options.max_domains;
  if (typeof domains === 'number' && domains > 0) {
    lines.push(`${count.format(domains)} branded ${domains === 1 ? 'domain' : 'domains'}`);
  }
  return lines;
}

export function priceText(price: PlanPriceRow, locale: string): string {
  return formatMoney(price.amount, price.currency, locale);
}

export const PER_INTERVAL: Record<BillingInterval, string> = {
  monthly: 'per month',
  yearly: 'per year',
};
