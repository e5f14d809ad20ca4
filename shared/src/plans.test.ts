import { describe, expect, it } from 'vitest';
import type { PlanPrice } from './plans.ts';
import {
  ENTERPRISE_PLAN,
  formatMoney,
  isPlanOption,
  minorUnitsPerMajor,
  normalizeCurrency,
  PLAN_OPTIONS,
  planLimit,
  planOption,
  planPriceFor,
} from './plans.ts';
import { parseDuration } from './time.ts';

function enterprisePrice(interval: 'monthly' | 'yearly'): PlanPrice {
  const price = planPriceFor(ENTERPRISE_PLAN, interval);
  if (price == null) throw new Error(`no ${interval} enterprise price`);
  return price;
}

describe('plan options (app-shell 3)', () => {
  it('names the 20 plan options', () => {
    expect(PLAN_OPTIONS).toHaveLength(20);
    expect(isPlanOption('max_active_aliases')).toBe(true);
    expect(isPlanOption('max_teams')).toBe(false);
  });

  it('looks up active prices by interval', () => {
    const inactiveOnly = {
      ...ENTERPRISE_PLAN,
      prices: ENTERPRISE_PLAN.prices.map((price) => ({ ...price, active: false })),
    };
    expect(planPriceFor(inactiveOnly, 'yearly')).toBeNull();
    expect(planPriceFor(ENTERPRISE_PLAN, 'yearly')?.interval).toBe('yearly');
  });

  it('reads unset options as null (unlimited) and refuses a non-numeric limit', () => {
    const price = enterprisePrice('yearly');
    expect(planOption(price, 'max_recent_urls')).toBeNull();
    expect(planLimit(price, 'max_domains')).toBeNull();
    expect(() => planLimit(price, 'alias_lifetime')).toThrow(
      'Plan option alias_lifetime is not a number',
    );
  });
});

describe('Enterprise plan (app-shell 9)', () => {
  it('costs 179900 monthly and 1798800 yearly in USD minor units', () => {
    expect(enterprisePrice('monthly').price).toEqual({ amount: 179900, currency: 'USD' });
    expect(enterprisePrice('yearly').price).toEqual({ amount: 1798800, currency: 'USD' });
    expect(formatMoney(enterprisePrice('monthly').price.amount)).toBe('$1,799.00');
    expect(formatMoney(enterprisePrice('yearly').price.amount)).toBe('$17,988.00');
  });

  it('allows 5,000,000 of each volume and 15,000,000 total aliases', () => {
    const price = enterprisePrice('monthly');
    for (const option of [
      'max_redirects',
      'max_active_aliases',
      'max_api_credits',
      'max_trackable_clicks',
      'max_branded_aliases_per_month',
      'max_aliases_per_month',
    ] as const) {
      expect(planLimit(price, option), option).toBe(5_000_000);
    }
    expect(planLimit(price, 'max_aliases')).toBe(15_000_000);
  });

  it('keeps aliases 90 days, analytics 2 years; 3 discounted domains, 1 vanity subdomain, 25 domains and subdomains', () => {
    const price = enterprisePrice('yearly');
    expect(parseDuration(String(planOption(price, 'alias_lifetime')))).toMatchObject({ days: 90 });
    expect(parseDuration(String(planOption(price, 'analytics_period')))).toMatchObject({
      years: 2,
    });
    expect(planLimit(price, 'discounted_domain_count')).toBe(3);
    expect(planLimit(price, 'max_vanity_subdomains')).toBe(1);
    expect(planLimit(price, 'max_domains_subdomains')).toBe(25);
  });

  it('has trial days 0 and no trial', () => {
    expect(ENTERPRISE_PLAN.trialDays).toBe(0);
    expect(ENTERPRISE_PLAN.trialAvailable).toBe(false);
  });

  it('includes the link, domain, alias, tag, analytics, redirect, logs, bulk and expiry features', () => {
    expect(enterprisePrice('yearly').features).toEqual(
      expect.arrayContaining([
        'create_tiny_url',
        'update_tiny_url',
        'change_long_url',
        'archive_tiny_url',
        'delete_tiny_url',
        'use_api',
        'use_branded_domains',
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
      ]),
    );
  });
});

describe('money', () => {
  it('formats minor units by the currency exponent', () => {
    expect(formatMoney(1999, 'usd')).toBe('$19.99');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(500, 'JPY')).toBe('¥500');
    expect(minorUnitsPerMajor('USD')).toBe(100);
    expect(minorUnitsPerMajor('JPY')).toBe(1);
  });

  it('upper-cases currency codes and defaults to USD', () => {
    expect(normalizeCurrency('eur')).toBe('EUR');
    expect(normalizeCurrency(null)).toBe('USD');
    expect(normalizeCurrency(' ')).toBe('USD');
  });

  it('refuses fractional minor units', () => {
    expect(() => formatMoney(19.5)).toThrow(RangeError);
  });
});
