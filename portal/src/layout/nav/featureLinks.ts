import type { RouteName } from '../../routes/paths.ts';

/** The Features dropdown: the feature pages in the order the spec lists them. */
export const FEATURE_LINKS: readonly { name: RouteName; label: string }[] = [
  { name: 'features.linkManagement', label: 'Link Management' },
  { name: 'features.customLinks', label: 'Custom Links' },
  { name: 'features.brandedDomains', label: 'Branded Domains' },
  { name: 'features.linkAnalytics', label: 'Link Analytics' },
  { name: 'features.freeDomains', label: 'Free Domains' },
  { name: 'features.howItWorks', label: 'How It Works' },
  { name: 'features.aboutUs', label: 'About Us' },
];
