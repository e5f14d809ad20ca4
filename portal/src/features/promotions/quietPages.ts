import { matchPath } from 'react-router-dom';
import { paths } from '../../routes/paths.ts';

/**
 * Pages where a promotion modal would be in the way of what it promotes or of paying: the
 * pricing and sale pages, settings and billing, the cart and the past-due page.
 */
const QUIET_PREFIXES = [
  paths['signup.pricing'],
  paths.bf2023,
  paths.cm2023,
  paths.settings,
  paths.purchase,
  paths['shopping-cart'],
  paths['subscription.past_due'],
];

export function isQuietPage(pathname: string): boolean {
  return QUIET_PREFIXES.some(
    (prefix) => matchPath({ path: `${prefix}/*`, end: false }, pathname) != null,
  );
}
