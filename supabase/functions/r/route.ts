/**
 * What a request on a short domain asks for, from its path. The runtime (Supabase's, and the
 * local gateway for short domains) puts the function's name in front of the path: `/r/abc`
 * stands for `https://<short domain>/abc`.
 *
 *   /                                         the domain's root
 *   /{alias}[/{addPath}]                      the link (addPath is appended to the destination)
 *   /preview/deprecated/{alias}[/{addPath}]   the spec's preview route: the destination shown first
 *   /{alias}+[/{addPath}]                     the same preview (`+` never ends an alias)
 *   /.well-known/tls-ask?domain={host}        whether {host} may get a certificate (tls-ask.ts;
 *                                             a dot never starts an alias, so no link shadows it)
 */

export type Route =
  | { kind: 'root' }
  | { kind: 'link'; alias: string; addPath: string }
  | { kind: 'preview'; alias: string; addPath: string }
  /** The TLS front's question (Caddy's `on_demand_tls { ask }`), see tls-ask.ts. */
  | { kind: 'tls-ask' }
  /** Not something a short link can be (a file name, a character aliases never have). */
  | { kind: 'unknown' };

/** The alias format of public.aliases (aliases_alias_format). */
const ALIAS = /^[A-Za-z0-9_-]{1,50}$/;
const FUNCTION_PREFIX = '/r';
export const PREVIEW_PREFIX = ['preview', 'deprecated'] as const;
/** The ask path on the function (deploy/Caddyfile's `ask` URL ends with it). */
export const TLS_ASK_PATH = '/.well-known/tls-ask';

/** The path as the visitor wrote it on the short domain (without the function's name). */
export function publicPath(pathname: string): string {
  if (pathname === FUNCTION_PREFIX) return '/';
  return pathname.startsWith(`${FUNCTION_PREFIX}/`)
    ? pathname.slice(FUNCTION_PREFIX.length)
    : pathname;
}

function aliasRoute(kind: 'link' | 'preview', segments: string[]): Route {
  const [first = '', ...rest] = segments;
  // A browser may send the `+` percent-encoded.
  const plus = first.endsWith('+') ? 1 : first.toUpperCase().endsWith('%2B') ? 3 : 0;
  const alias = plus ? first.slice(0, -plus) : first;
  if (!ALIAS.test(alias)) return { kind: 'unknown' };
  return { kind: plus ? 'preview' : kind, alias, addPath: rest.join('/') };
}

/** Reads a URL pathname (percent-encoded, dot segments already resolved by the URL parser). */
export function parseRoute(pathname: string): Route {
  const path = publicPath(pathname);
  if (path === '/' || path === '') return { kind: 'root' };
  if (path === TLS_ASK_PATH) return { kind: 'tls-ask' };
  const segments = path.slice(1).split('/');
  if (segments[0] === PREVIEW_PREFIX[0] && segments[1] === PREVIEW_PREFIX[1]) {
    // The preview route without an alias previews nothing: the domain's root.
    if (!segments[2]) return { kind: 'root' };
    return aliasRoute('preview', segments.slice(2));
  }
  return aliasRoute('link', segments);
}
