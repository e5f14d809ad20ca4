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
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1';
  return false;
}

const isLocalhost = (hostname: string) => hostname === 'localhost' || isLoopbackIp(hostname);

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
  if (
    base.hostname === url.hostname &&
    base.protocol === url.protocol &&
    (base.port === url.port || isLocalhost(url.hostname))
  ) {
    return true;
  }
  const isHttp = url.protocol === 'http:' || url.protocol === 'https:';
  if (/^[0-9]+$/.test(url.hostname)) return false;
  if (isIP(url.hostname.replace(/^\[|\]$/g, ''))) return isLoopbackIp(url.hostname);
  if (isHttp && !/^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/.test(url.hostname)) return false;

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
