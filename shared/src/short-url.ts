/**
 * Every short URL the product shows, copies, encodes in a QR code or answers (the portal, the
 * links function's `tiny_url`, the bulk result CSV, e2e expectations) is built by `shortUrl`.
 *
 * The host is the domain as stored (`public.domains.domain`, an IDN already in its punycode
 * form): it is never re-encoded here. What varies between places is only where short domains
 * are served: production serves them on https's own port (`https://shrt.example/abc`), the local
 * stack on its gateway's port over http (`http://shrt.localhost:54321/abc`). That "base" comes
 * from configuration, written as an origin with `{domain}` for the host:
 *
 *   SHORT_URL_BASE=http://{domain}:54321      (edge functions)
 *   VITE_SHORT_URL_BASE=http://{domain}:54321 (portal, kiosk)
 *
 * Unset means production: `https://{domain}`.
 */

export interface ShortUrlBase {
  scheme: 'http' | 'https';
  /** null: the scheme's own port, left out of the URL. */
  port: number | null;
}

export interface ShortLinkAddress {
  /** The short domain as stored (punycode for an IDN). */
  domain: string;
  alias: string;
  /** A path after the alias (the `r` function's addPath), with or without its leading slash. */
  path?: string;
}

export const PRODUCTION_SHORT_URL_BASE: ShortUrlBase = { scheme: 'https', port: null };

/** The edge functions' variable; the apps read it with Vite's `VITE_` prefix. */
export const SHORT_URL_BASE_VARIABLE = 'SHORT_URL_BASE';

const DEFAULT_PORTS = { http: 80, https: 443 } as const;
const DOMAIN_PLACEHOLDER = '{domain}';
const BASE_FORMAT = /^(https?):\/\/\{domain\}(?::(\d{1,5}))?\/?$/i;

/** The full short URL of a link: `${scheme}://${domain}[:port]/${alias}[/path]`. */
export function shortUrl(link: ShortLinkAddress, base: ShortUrlBase): string {
  const port =
    base.port === null || base.port === DEFAULT_PORTS[base.scheme] ? '' : `:${base.port}`;
  const path = link.path ? `/${link.path.replace(/^\/+/, '')}` : '';
  return `${base.scheme}://${link.domain}${port}/${link.alias}${path}`;
}

/** The configuration text of a base: `http://{domain}:54321`, `https://{domain}`. */
export function formatShortUrlBase(base: ShortUrlBase): string {
  return `${base.scheme}://${DOMAIN_PLACEHOLDER}${base.port === null ? '' : `:${base.port}`}`;
}

/**
 * Reads a base from its configuration text (see the module's comment); unset or blank is
 * production. Anything else throws an error naming `variable`, so a typo stops the app or the
 * function at start-up rather than handing out links that lead nowhere.
 */
export function parseShortUrlBase(
  text: string | null | undefined,
  variable: string = SHORT_URL_BASE_VARIABLE,
): ShortUrlBase {
  const value = text?.trim() ?? '';
  if (value === '') return PRODUCTION_SHORT_URL_BASE;
  const match = BASE_FORMAT.exec(value);
  const port = match?.[2] === undefined ? null : Number(match[2]);
  if (!match || (port !== null && (port < 1 || port > 65535))) {
    throw new Error(
      `${variable} must look like https://${DOMAIN_PLACEHOLDER} or http://${DOMAIN_PLACEHOLDER}:54321, got "${value}".`,
    );
  }
  return { scheme: match[1]!.toLowerCase() as ShortUrlBase['scheme'], port };
}
