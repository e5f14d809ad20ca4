import { isIP } from 'node:net';
import type { AuthSettings } from './settings.ts';

/**
 * Where e-mail links and /verify send the browser: GoTrue's IsRedirectURLValid and GetReferrer.
 * A target is allowed when it is on the site URL's origin (any port on localhost), a loopback
 * IP, or matches an additional_redirect_urls glob; anything else falls back to the site URL.
 */

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index++;
    } else if (char === '*') {
      // gobwas/glob, as GoTrue compiles it, stops a single star at '.' and '/'.
      source += '[^./]*';
    } else if (char === '?') {
      source += '[^./]';
    } else if (char === '{') {
      const end = pattern.indexOf('}', index);
      if (end === -1) {
        source += '\\{';
        continue;
      }
      const options = pattern.slice(index + 1, end).split(',');
      source += `(?:${options.map((option) => option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
      index = end;
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

function isLoopbackIp(hostname: string): boolean {
  if (isIP(hostname) === 4) return hostname.startsWith('127.');
  if (isIP(hostname) === 6) return hostname === '::1';
  return false;
}

const isLocalhost = (hostname: string) => hostname === 'localhost' || isLoopbackIp(hostname);

/**
 * The host as written. WHATWG URL parsing rewrites hosts (http://2130706433/ becomes 127.0.0.1)
 * where Go's url.Parse keeps them, and GoTrue's checks look at the written form.
 */
function writtenHostname(target: string): string {
  const match = target.match(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/);
  return (match?.[1] ?? '').replace(/^\[|\]$/g, '');
}

export function isRedirectUrlValid(settings: AuthSettings, target: string): boolean {
  if (!target) return false;
  let base: URL;
  let url: URL;
  try {
    base = new URL(settings.siteUrl);
    url = new URL(target);
  } catch {
    return false;
  }
  const hostname = writtenHostname(target);
  if (
    writtenHostname(settings.siteUrl) === hostname &&
    base.protocol === url.protocol &&
    (base.port === url.port || isLocalhost(hostname))
  ) {
    return true;
  }
  const isHttp = url.protocol === 'http:' || url.protocol === 'https:';
  if (/^[0-9]+$/.test(hostname)) return false;
  if (isIP(hostname)) return isLoopbackIp(hostname);
  if (isHttp && !/^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/.test(hostname)) return false;

  const withoutFragment = target.split('#')[0]!;
  return settings.additionalRedirectUrls.some((pattern) =>
    globToRegExp(pattern).test(withoutFragment),
  );
}

/** The redirect_to of a request (header, then query), else its Referer, else the site URL. */
export function referrerOf(request: Request, settings: AuthSettings): string {
  const url = new URL(request.url);
  const requested = request.headers.get('redirect_to') || url.searchParams.get('redirect_to') || '';
  if (isRedirectUrlValid(settings, requested)) return requested;
  const referer = request.headers.get('referer') ?? '';
  if (isRedirectUrlValid(settings, referer)) return referer;
  return settings.siteUrl;
}
