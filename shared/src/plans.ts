/** Plan definitions, options and money (app-shell sections 3 and 9). */
import type { BillingInterval } from './constants.ts';
import { DEFAULT_CURRENCY, DEFAULT_LOCALE } from './constants.ts';
import type { Feature } from './features.ts';

/** The spec's "Plan options" names. */
export const PLAN_OPTIONS = [
  'max_redirects',
  'max_recent_urls',
  'alias_lifetime',
  'analytics_enabled',
  'analytics_public',
  'analytics_period',
  'max_web_credits',
  'discounted_domain_count',
  'max_active_aliases',
  'max_aliases',
  'max_aliases_per_url',
  'max_api_credits',
  'max_vanity_subdomains',
  'max_domains',
  'max_subdomains',
  'max_domains_subdomains',
  'links_with_unlimited_clicks',
  'max_trackable_clicks',
  'max_branded_aliases_per_month',
  'max_aliases_per_month',
] as const;
export type PlanOption = (typeof PLAN_OPTIONS)[number];

/** Counts are numbers, flags booleans, durations strings (`P90D`); null means unlimited. */
export type PlanOptionValue = number | boolean | string | null;
export type PlanOptions = Partial<Record<PlanOption, PlanOptionValue>>;

export interface Money {
  /** Minor units (cents for USD). */
  amount: number;
  currency: string;
}

export interface PlanPrice {
  active: boolean;
  interval: BillingInterval;
  price: Money;
  features: readonly Feature[];
  options: PlanOptions;
  metered_by: string | null;
}

export interface PlanDefinition {
  name: string;
  group: string;
  slide: number | null;
  popular: boolean;
  hidden: boolean;
  active: boolean;
  type: 'user';
  prices: readonly PlanPrice[];
  trialDays: number;
  trialDelay: number;
  trialAvailable: boolean;
  forcePaymentMethod: boolean;
  custom: boolean;
  allowIntervalDowngrade: boolean;
  forceBillingAddress: boolean;
}

export function isPlanOption(value: string): value is PlanOption {
  return (PLAN_OPTIONS as readonly string[]).includes(value);
}

/** The active price of a plan for a billing interval. */
export function planPriceFor(plan: PlanDefinition, interval: BillingInterval): PlanPrice | null {
  return plan.prices.find((price) => price.active && price.interval === interval) ?? null;
}

/** A plan option's value; an option the price does not set is null (unlimited / not set). */
export function planOption(price: PlanPrice, option: PlanOption): PlanOptionValue {
  return price.options[option] ?? null;
}

/** A numeric limit option; null means unlimited. Throws if the option is not a number. */
export function planLimit(price: PlanPrice, option: PlanOption): number | null {
  const value = planOption(price, option);
  if (value === null || typeof value === 'number') return value;
  throw new TypeError(`Plan option ${option} is not a number: ${String(value)}`);
}

const ENTERPRISE_VOLUME = 5_000_000;

const ENTERPRISE_OPTIONS: PlanOptions = {
  max_redirects: ENTERPRISE_VOLUME,
  max_active_aliases: ENTERPRISE_VOLUME,
  max_api_credits: ENTERPRISE_VOLUME,
  max_trackable_clicks: ENTERPRISE_VOLUME,
  max_branded_aliases_per_month: ENTERPRISE_VOLUME,
  max_aliases_per_month: ENTERPRISE_VOLUME,
  max_aliases: 15_000_000,
  alias_lifetime: 'P90D',
  analytics_period: 'P2Y',
  discounted_domain_count: 3,
  max_vanity_subdomains: 1,
  max_domains_subdomains: 25,
};

const ENTERPRISE_FEATURES: readonly Feature[] = [
  'create_tiny_url',
  'update_tiny_url',
  'change_long_url',
  'archive_tiny_url',
  'delete_tiny_url',
  'use_api',
  'use_branded_domains',
  'add_branded_domains',
  'purchase_branded_domains',
  'add_vanity_subdomains',
  'use_custom_alias',
  'use_tags',
  'use_analytics',
  'domain_root_redirect',
  'domain_404_redirect',
  'download_logs',
  'use_bulk',
  'manage_expiration',
];

/** Enterprise promises that are not feature flags; shown on the plan card. */
export const ENTERPRISE_EXTRAS = [
  'webhooks',
  'support',
  'dedicated manager',
  'emergency phone',
  'uptime guarantee',
] as const;

export const ENTERPRISE_PLAN: PlanDefinition = {
  name: 'enterprise',
  group: 'enterprise',
  slide: null,
  popular: false,
  hidden: false,
  active: true,
  type: 'user',
  prices: [
    {
      active: true,
      interval: 'monthly',
      price: { amount: 179_900, currency: 'USD' },
      features: ENTERPRISE_FEATURES,
      options: ENTERPRISE_OPTIONS,
      metered_by: null,
    },
    {
      active: true,
      interval: 'yearly',
      price: { amount: 1_798_800, currency: 'USD' },
      features: ENTERPRISE_FEATURES,
      options: ENTERPRISE_OPTIONS,
      metered_by: null,
    },
  ],
  trialDays: 0,
  trialDelay: 0,
  trialAvailable: false,
  forcePaymentMethod: false,
  custom: false,
  allowIntervalDowngrade: false,
  forceBillingAddress: false,
};

/** Currency codes are upper-cased (default USD). */
export function normalizeCurrency(currency: string | null | undefined): string {
  const code = (currency ?? '').trim().toUpperCase();
  return code === '' ? DEFAULT_CURRENCY : code;
}

function currencyFormat(currency: string, locale: string): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: normalizeCurrency(currency),
  });
}

/** How many minor units make one major unit of a currency (100 for USD, 1 for JPY). */
export function minorUnitsPerMajor(currency: string): number {
  return (
    10 ** (currencyFormat(currency, DEFAULT_LOCALE).resolvedOptions().maximumFractionDigits ?? 2)
  );
}

/** Formats an amount held in minor units, e.g. 179900 USD → "$1,799.00". */
export function formatMoney(
  amountMinor: number,
  currency: string = DEFAULT_CURRENCY,
  locale: string = DEFAULT_LOCALE,
): string {
  if (!Number.isInteger(amountMinor)) {
    throw new RangeError(`Money is held in whole minor units, got ${amountMinor}`);
  }
  return currencyFormat(currency, locale).format(amountMinor / minorUnitsPerMajor(currency));
}
