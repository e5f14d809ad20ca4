/**
 * The TLS front's question (deploy/Caddyfile): before it obtains a certificate for a host it has
 * not seen, Caddy's `on_demand_tls { ask <url> }` sends `GET <url>?domain=<host>` and goes on
 * only on a 2xx answer. A host may get one when the redirect would serve it now: one of our
 * domains (common, verified branded or organization, vanity subdomain) that is usable in the
 * sense of app.resolve_short_links (not disabled, deleted or blocked, and verified). The answer
 * comes from the redirect's own resolver, so it is the redirect's rule and its cache (unknown
 * hosts included, which is what a scanner sends): most questions cost no database round trip.
 *
 * 200 yes, 404 no, 400 without a host name in `domain`.
 */
import { json } from '../_shared/http.ts';
import type { Resolved } from './resolve.ts';

/** A DNS host name as a certificate may name it (no wildcard, no IP literal, no port). */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const MAX_NAME = 253;

/** The host name asked about, lower case and without a trailing dot; null if it is none. */
export function askedDomain(url: URL): string | null {
  const values = url.searchParams.getAll('domain');
  if (values.length !== 1) return null;
  const name = values[0]!.trim().toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > MAX_NAME) return null;
  const labels = name.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // An IPv4 literal is made of valid labels too; a certificate is never ours for it.
  if (labels.every((label) => /^\d+$/.test(label))) return null;
  return name;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function tlsAskResponse(
  url: URL,
  resolve: (domain: string, alias: string) => Resolved | null | Promise<Resolved | null>,
): Promise<Response> {
  const domain = askedDomain(url);
  if (domain === null)
    return json(
      { code: 'invalid_domain', message: 'The query must name one host name in `domain`.' },
      400,
      NO_STORE,
    );
  const resolved = await resolve(domain, '');
  return resolved?.domain.usable
    ? json({ domain, allowed: true }, 200, NO_STORE)
    : json({ domain, allowed: false }, 404, NO_STORE);
}
