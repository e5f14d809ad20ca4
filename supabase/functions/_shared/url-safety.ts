/**
 * Is a long URL safe to shorten? Only public http(s) destinations: no internal or cloud-metadata
 * address in any spelling, no control characters, no credentials, nothing over 8 KB as typed or
 * 2048 characters stored, no link to our own short domains, nothing on a banned domain. Refusals
 * carry the data-model error codes.
 *
 * The database holds the same rule (app.judge_destination, migration 20261122002200), which every
 * write of a destination goes through; this copy is the edge functions' pre-check, so that a
 * hostile URL is refused before anything else is looked up, with the form's other field errors.
 * Both are tested on one list (supabase/tests/fixtures/hostile-destinations.json) and must give
 * the same verdict and the same stored form.
 *
 * WHATWG URL parsing does the heavy lifting (it canonicalises decimal, octal, hex and shortened
 * IPv4 hosts, percent-encoded and full-width digits, and IDN to punycode); what it leaves as
 * written (IPv6 forms, trailing dots, single-label names) is judged here. Hostnames are not
 * resolved: a public name that resolves to an internal address (DNS rebinding) must be caught by
 * whatever fetches URLs server-side, at connect time. The redirect itself happens in the browser.
 */
import { ERROR_CODES } from '../../../shared/src/errors.ts';
import { HttpError } from './http.ts';
import { classifyIp, type IpRange, parseIp } from './ip-address.ts';

/** Most UTF-8 bytes a URL may have as typed (before anything is parsed). */
export const MAX_URL_BYTES = 8192;
/** Most characters of the stored (normalised, percent-encoded) form: the columns' limit. */
export const MAX_STORED_URL_LENGTH = 2048;

export type UrlErrorCode = 'url_required' | 'url_invalid' | 'url_not_allowed' | 'url_banned';

/** Why a URL was refused, finer than the code (for logs and tests; users see the message). */
export type UrlRefusalReason =
  | 'empty'
  | 'not_text'
  | 'control_character'
  | 'too_long'
  | 'malformed'
  | 'scheme'
  | 'userinfo'
  | 'ambiguous_authority'
  | 'internal_address'
  | 'internal_host'
  | 'own_domain'
  | 'banned';

export interface UrlRefusal {
  ok: false;
  code: UrlErrorCode;
  reason: UrlRefusalReason;
  /** The spec's message for the code. */
  message: string;
  /** For internal addresses: which range the host is in. */
  range?: IpRange;
}

export interface SafeDestination {
  ok: true;
  /** The normalised URL to store: lower-case scheme and host, punycode, no trailing host dot. */
  url: string;
  /** Its host (punycode; IPv6 in brackets). */
  host: string;
}

export type DestinationCheck = SafeDestination | UrlRefusal;

export interface DestinationPolicy {
  /** Our own short domains: a link to one of them (or a subdomain) would loop or launder. */
  shortDomains: Iterable<string>;
  /**
   * Whether any of the given domains is banned. It receives the host and each parent domain,
   * most specific first (`a.b.example.com`, `b.example.com`, `example.com`, `com`), all in
   * normalised form, so one set lookup or one `= any($1)` query answers for every subdomain.
   */
  isBanned: (domains: readonly string[]) => boolean | Promise<boolean>;
}

function refuse(code: UrlErrorCode, reason: UrlRefusalReason, range?: IpRange): UrlRefusal {
  const message = ERROR_CODES[code].message;
  return range ? { ok: false, code, reason, message, range } : { ok: false, code, reason, message };
}

// C0 controls (CR, LF, tab, NUL...), DEL, and the Unicode line breaks (NEL, LS, PS): WHATWG URL
// would silently drop or encode some of them, which is how header and log injection slips through.
// deno-lint-ignore no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const WEB_SCHEME_AND_SLASHES = /^https?:\/\//i;
const HOST_LABEL = /^[a-z0-9_-]{1,63}$/;
const MAX_HOST_LENGTH = 253;

/** Names that only ever reach this machine, its network or a cloud metadata service. */
const INTERNAL_NAMES = new Set(['localhost', 'metadata.google.internal', 'metadata.goog']);
// `.arpa` holds reverse-lookup and home-network names (home.arpa), never a web site.
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.arpa'];

const encoder = new TextEncoder();
/** UTF-8 bytes of a text: at most three per UTF-16 unit, so short texts are not encoded. */
const utf8LengthOver = (text: string, limit: number) =>
  text.length * 3 > limit && encoder.encode(text).length > limit;

/**
 * A domain in the one form every comparison uses: lower case, IDN as punycode, no trailing dot.
 * Null when the text is not a bare domain name (no scheme, port, path or credentials).
 */
export function normaliseDomain(domain: string): string | null {
  const text = domain.trim();
  if (text === '' || /[/?#@:\\\s]/.test(text)) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${text}`).hostname;
  } catch {
    return null;
  }
  const bare = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return bare.split('.').every((label) => HOST_LABEL.test(label)) ? bare : null;
}

/** The host and each parent domain, most specific first. */
export function domainAndParents(host: string): string[] {
  const labels = host.split('.');
  return labels.map((_, index) => labels.slice(index).join('.'));
}

/** Equal to the domain or one of its subdomains (both normalised). */
export const isDomainOrSubdomain = (host: string, domain: string) =>
  host === domain || host.endsWith(`.${domain}`);

/**
 * An `isBanned` over a fixed list (config, tests). Entries are normalised as hosts are, so
 * `Exämple.COM.` bans `xn--exmple-cua.com`; an entry that is not a domain is an error.
 */
export function bannedDomainList(domains: Iterable<string>): DestinationPolicy['isBanned'] {
  const banned = new Set<string>();
  for (const domain of domains) {
    const normalised = normaliseDomain(domain);
    if (!normalised) throw new Error(`Not a domain name: "${domain}"`);
    banned.add(normalised);
  }
  return (candidates) => candidates.some((candidate) => banned.has(candidate));
}

function isInternalName(host: string): boolean {
  if (!host.includes('.')) return true; // single label: resolved through the local search domain
  return INTERNAL_NAMES.has(host) || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/**
 * The authority as written (between `//` and the first `/ ? # \\`), and what ended it; then as a
 * parser reads it, once the slashes it skips after `//` are skipped.
 */
function rawAuthorities(text: string): { authority: string; end: string | undefined }[] {
  const rest = text.replace(WEB_SCHEME_AND_SLASHES, '');
  return [rest, rest.replace(/^[/\\]+/, '')].map((part) => {
    const match = part.match(/^([^/?#\\]*)([/?#\\])?/);
    return { authority: match?.[1] ?? '', end: match?.[2] };
  });
}

export async function checkDestination(
  raw: unknown,
  policy: DestinationPolicy,
): Promise<DestinationCheck> {
  if (raw === null || raw === undefined) return refuse('url_required', 'empty');
  if (typeof raw !== 'string') return refuse('url_invalid', 'not_text');
  if (CONTROL_CHARACTER.test(raw)) return refuse('url_invalid', 'control_character');
  const text = raw.replace(/^ +| +$/g, '');
  if (text === '') return refuse('url_required', 'empty');
  if (utf8LengthOver(text, MAX_URL_BYTES)) return refuse('url_invalid', 'too_long');

  const scheme = text.match(SCHEME)?.[1]?.toLowerCase();
  if (!scheme) return refuse('url_invalid', 'malformed');
  if (scheme !== 'http' && scheme !== 'https') return refuse('url_not_allowed', 'scheme');
  // `http:example.com` and `http:/\example.com` parse, but no one means them.
  if (!WEB_SCHEME_AND_SLASHES.test(text)) return refuse('url_invalid', 'malformed');

  // Judged on the text as written: parsers disagree about `\` and `@` in the authority, and a
  // credential prefix (`https://bank.com@evil.example`) exists only to mislead the reader.
  for (const { authority, end } of rawAuthorities(text)) {
    if (end === '\\') return refuse('url_not_allowed', 'ambiguous_authority');
    if (authority.includes('@')) return refuse('url_not_allowed', 'userinfo');
  }

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('url_invalid', 'malformed');
  }
  if (url.username !== '' || url.password !== '') return refuse('url_not_allowed', 'userinfo');

  const ip = parseIp(url.hostname);
  let host: string;
  if (ip) {
    const range = classifyIp(ip);
    if (range !== 'public') return refuse('url_not_allowed', 'internal_address', range);
    host = url.hostname;
  } else {
    const trailingDot = url.hostname.endsWith('.');
    host = trailingDot ? url.hostname.slice(0, -1) : url.hostname;
    const labels = host.split('.');
    if (host.length > MAX_HOST_LENGTH || !labels.every((label) => HOST_LABEL.test(label)))
      return refuse('url_invalid', 'malformed');
    if (isInternalName(host)) return refuse('url_not_allowed', 'internal_host');
    // Setting the host parses the URL again: only when the trailing dot goes.
    if (trailingDot) url.hostname = host;
  }

  for (const domain of policy.shortDomains) {
    const own = normaliseDomain(domain);
    if (own && isDomainOrSubdomain(host, own)) return refuse('url_not_allowed', 'own_domain');
  }
  const candidates = ip ? [host] : domainAndParents(host);
  if (await policy.isBanned(candidates)) return refuse('url_banned', 'banned');

  // Percent-encoding can grow the text: the stored form must fit the columns.
  if (url.href.length > MAX_STORED_URL_LENGTH) return refuse('url_invalid', 'too_long');
  return { ok: true, url: url.href, host };
}

/** The 422 a function answers with, in the shape the apps map (`errors.url`). */
export function destinationError(refusal: UrlRefusal): HttpError {
  return new HttpError(ERROR_CODES[refusal.code].status, refusal.message, refusal.code, {
    url: [refusal.message],
  });
}
