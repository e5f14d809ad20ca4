import { shortUrl, type ShortLinkAddress } from '@shortlane/shared/short-url.ts';
import { useConfig } from '../../lib/servicesContext.ts';

/**
 * A link's short URL where this portal's short domains are served (VITE_SHORT_URL_BASE): what
 * every Visit, Copy, Share and QR code of the portal uses, whatever the server answered.
 */
export function useShortUrl(link: ShortLinkAddress): string {
  return shortUrl(link, useConfig().shortUrlBase);
}
