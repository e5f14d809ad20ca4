/**
 * One click as the redirect records it, from the request alone: everything here is cheap and
 * synchronous except the IP hash and the country, which the writer side may resolve later.
 */
import { canonicalIp } from '../ip-address.ts';
import { parseUserAgent, type DeviceType } from './user-agent.ts';

export interface ClickFacts {
  at: Date;
  device: DeviceType;
  browser: string | null;
  os: string | null;
  isBot: boolean;
  /** The referring site's host (lower case), without path or query: they may carry personal data. */
  referrerHost: string | null;
  /** The visit came from the link's QR code (the QR code encodes the short URL with `?qr=1`). */
  isQr: boolean;
  /** The visitor's address, canonical: to be hashed and located, never stored as is. */
  remoteIp: string | null;
}

/** The host of an http(s) Referer, or null. */
export function referrerHost(header: string | null | undefined): string | null {
  if (!header) return null;
  try {
    const url = new URL(header);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : null;
  } catch {
    return null;
  }
}

/**
 * The client's address as the proxy in front of the function reports it: the first entry of
 * X-Forwarded-For, else X-Real-IP; null when neither holds an IP address. A client can put its
 * own X-Forwarded-For in front, so this is good for analytics (country, unique visitors), not
 * for access control.
 */
export function clientIp(headers: Headers): string | null {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0];
  return canonicalIp(forwarded ?? '') ?? canonicalIp(headers.get('x-real-ip') ?? '');
}

export function clickFacts(request: Request, at = new Date()): ClickFacts {
  const agent = parseUserAgent(request.headers.get('user-agent'));
  return {
    at,
    ...agent,
    referrerHost: referrerHost(request.headers.get('referer')),
    isQr: new URL(request.url).searchParams.get('qr') === '1',
    remoteIp: clientIp(request.headers),
  };
}
