/**
 * What "Sign in with SSO" was given: a work e-mail or a domain (signInWithSSO by domain), or an
 * organization's slug (its provider, looked up first). Null when it is neither.
 */
export type SsoTarget = { domain: string } | { slug: string } | null;

const DOMAIN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export function ssoTargetOf(input: string): SsoTarget {
  const value = input.trim().toLowerCase();
  const domain = value.includes('@') ? value.slice(value.lastIndexOf('@') + 1) : value;
  if (DOMAIN.test(domain)) return { domain };
  if (!value.includes('@') && SLUG.test(value)) return { slug: value };
  return null;
}
