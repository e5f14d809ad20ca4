/**
 * Branded domains as the portal takes them from a customer: the name they type, cleaned the way
 * the database will store it, and whether it is a valid name at all (public.domain_name says the
 * same; the database has the last word, with banned, ours and taken names too).
 */

const DOMAIN_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Lower case, no spaces, no scheme, path, port or trailing dot: what people paste. */
export function normalizeDomainName(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '');
}

export function isValidDomainName(name: string): boolean {
  return DOMAIN_NAME.test(name);
}

/** A vanity subdomain's label: 3 to 63 letters, digits and dashes, no dash at either end. */
const VANITY_LABEL = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

export function isValidVanityLabel(label: string): boolean {
  return VANITY_LABEL.test(label.trim().toLowerCase());
}

/** "2 of 5", or "2 (no limit)" where the plan sets none. */
export function usageText(used: number, limit: number | null): string {
  return limit == null ? `${used} (no limit)` : `${used} of ${limit}`;
}
