import { hasFeature } from '@shortlane/shared/features.ts';
import type { RouteName } from '../../routes/paths.ts';

/** What the settings sidebars' visibility rules read (app-shell 2, "Settings"). */
export interface SettingsMenuFacts {
  /** The personal account's features (plan and account's own). */
  features: readonly string[];
  /** Logged in with a current non-free subscription. */
  subscribed: boolean;
  hasOrders: boolean;
  /** Owns at least one branded domain that is not deleted. */
  ownsDomain: boolean;
  /** The profile's status flag 16 ("hide invoices"). */
  hideInvoices: boolean;
  /** The configuration switch for account usage. */
  accountUsageEnabled: boolean;
  teamsAllowed: boolean;
}

export interface SettingsMenuEntry {
  label: string;
  route: RouteName;
}

export interface SettingsMenu {
  account: SettingsMenuEntry[];
  billing: SettingsMenuEntry[];
}

interface Rule extends SettingsMenuEntry {
  visible: (facts: SettingsMenuFacts) => boolean;
}

const always = () => true;

const ACCOUNT_ENTRIES: readonly Rule[] = [
  { label: 'Profile', route: 'settings.profile', visible: always },
  { label: 'Security', route: 'settings.security', visible: always },
  { label: 'Account Usage', route: 'settings.usage', visible: (f) => f.accountUsageEnabled },
  // The spec lists the entry as "currently hidden": kept here so switching it on is one line.
  { label: 'Custom Pixel Scripts', route: 'settings.pixelScripts', visible: () => false },
  {
    label: 'Branded Domains',
    route: 'settings.brandedDomains',
    visible: (f) => hasFeature(f, 'use_branded_domains'),
  },
  { label: 'API', route: 'settings.api', visible: (f) => hasFeature(f, 'use_api') },
  // An Enterprise feature outside the spec's flag list (plans.ts): the page shows the upsell.
  {
    label: 'Webhooks',
    route: 'settings.webhooks',
    visible: (f) => f.features.includes('webhooks'),
  },
  // Not in the spec's sidebar list, but its route exists "only when teams are allowed", and
  // without an entry nothing would lead there.
  { label: 'Teams', route: 'settings.teams', visible: (f) => f.teamsAllowed },
];

const BILLING_ENTRIES: readonly Rule[] = [
  { label: 'Subscription', route: 'settings.subscription', visible: always },
  { label: 'Orders', route: 'shopping-cart.orders', visible: (f) => f.subscribed || f.hasOrders },
  {
    label: 'Payment Method',
    route: 'settings.paymentMethod',
    visible: (f) => f.subscribed || f.ownsDomain,
  },
  // "Always" in the sidebar list; the user's "hide invoices" status flag is what hides them.
  { label: 'Invoices', route: 'settings.invoices', visible: (f) => !f.hideInvoices },
];

const pick = (rules: readonly Rule[], facts: SettingsMenuFacts): SettingsMenuEntry[] =>
  rules.filter((rule) => rule.visible(facts)).map(({ label, route }) => ({ label, route }));

/** The entries of the account and billing sidebars this user sees, in the spec's order. */
export function settingsMenu(facts: SettingsMenuFacts): SettingsMenu {
  return { account: pick(ACCOUNT_ENTRIES, facts), billing: pick(BILLING_ENTRIES, facts) };
}
