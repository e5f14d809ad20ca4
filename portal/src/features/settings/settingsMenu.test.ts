import { describe, expect, it } from 'vitest';
import { settingsMenu, type SettingsMenuFacts } from './settingsMenu.ts';

const freeUser: SettingsMenuFacts = {
  features: ['create_tiny_url'],
  subscribed: false,
  hasOrders: false,
  ownsDomain: false,
  hideInvoices: false,
  accountUsageEnabled: false,
  teamsAllowed: false,
};

const labels = (facts: Partial<SettingsMenuFacts>) => {
  const menu = settingsMenu({ ...freeUser, ...facts });
  return { account: menu.account.map((e) => e.label), billing: menu.billing.map((e) => e.label) };
};

describe('settings sidebars', () => {
  it('a free user without orders or domains sees the entries that are always there', () => {
    expect(labels({})).toEqual({
      account: ['Profile', 'Security'],
      billing: ['Subscription', 'Invoices'],
    });
  });

  it('shows Account Usage only when the configuration switches it on', () => {
    expect(labels({ accountUsageEnabled: true }).account).toEqual([
      'Profile',
      'Security',
      'Account Usage',
    ]);
  });

  it('shows Webhooks only to a plan with the webhooks feature (Enterprise)', () => {
    expect(labels({}).account).not.toContain('Webhooks');
    expect(labels({ features: ['use_api', 'webhooks'] }).account).toEqual([
      'Profile',
      'Security',
      'API',
      'Webhooks',
    ]);
  });

  it('never shows Custom Pixel Scripts (currently hidden), whatever the plan', () => {
    const everything = labels({
      features: ['use_branded_domains', 'use_api', 'download_logs'],
      subscribed: true,
      accountUsageEnabled: true,
      teamsAllowed: true,
    });
    expect(everything.account).not.toContain('Custom Pixel Scripts');
    expect(everything.account).toEqual([
      'Profile',
      'Security',
      'Account Usage',
      'Branded Domains',
      'API',
      'Teams',
    ]);
  });

  it.each([
    [['use_branded_domains'], ['Branded Domains']],
    [['use_api'], ['API']],
    [
      ['use_branded_domains', 'use_api'],
      ['Branded Domains', 'API'],
    ],
    [['purchase_branded_domains', 'use_analytics'], []],
  ])('plan features %j add %j', (features, added) => {
    expect(labels({ features }).account).toEqual(['Profile', 'Security', ...added]);
  });

  it('shows Teams only when teams are allowed', () => {
    expect(labels({ teamsAllowed: true }).account).toContain('Teams');
    expect(labels({ teamsAllowed: false }).account).not.toContain('Teams');
  });

  it.each([
    // subscribed, hasOrders, ownsDomain → billing entries
    [false, false, false, ['Subscription', 'Invoices']],
    [true, false, false, ['Subscription', 'Orders', 'Payment Method', 'Invoices']],
    [false, true, false, ['Subscription', 'Orders', 'Invoices']],
    [false, false, true, ['Subscription', 'Payment Method', 'Invoices']],
    [false, true, true, ['Subscription', 'Orders', 'Payment Method', 'Invoices']],
  ])(
    'billing: subscribed %s, orders %s, owns a domain %s → %j',
    (subscribed, hasOrders, ownsDomain, expected) => {
      expect(labels({ subscribed, hasOrders, ownsDomain }).billing).toEqual(expected);
    },
  );

  it('hides Invoices for a user flagged "hide invoices", subscribed or not', () => {
    expect(labels({ hideInvoices: true }).billing).toEqual(['Subscription']);
    expect(labels({ hideInvoices: true, subscribed: true }).billing).toEqual([
      'Subscription',
      'Orders',
      'Payment Method',
    ]);
  });

  it('links each entry to its named route', () => {
    const menu = settingsMenu({ ...freeUser, subscribed: true, features: ['use_api'] });
    expect(menu.account.find((e) => e.label === 'API')?.route).toBe('settings.api');
    expect(menu.billing.find((e) => e.label === 'Orders')?.route).toBe('shopping-cart.orders');
  });
});
