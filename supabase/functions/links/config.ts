/**
 * The function's dependencies from its environment:
 *
 *   BOT_CHECK_PROVIDER, HCAPTCHA_*, BOT_CHECK_WHITELIST   see _shared/bot-check/env.ts
 *   GUEST_LINK_RATE_LIMIT   guest creations per client address, "<count>/<window>" (guest-quota.ts)
 *   TRUSTED_PROXIES   comma-separated addresses and CIDR ranges of the proxies in front of the
 *                     function whose X-Forwarded-For entries are skipped to find the client
 *                     (client-address.ts); unset: only the last hop is believed
 *   SHORT_URL_BASE    where short domains are served, for tiny_url (_shared/short-url.ts)
 */
import {
  botCheckFromEnv,
  botCheckWhitelistFromEnv,
  type EnvReader,
} from '../_shared/bot-check/env.ts';
import { countryOf } from '../_shared/clicks/geo.ts';
import { shortUrlBaseFromEnv } from '../_shared/short-url.ts';
import { parseTrustedProxies } from './client-address.ts';
import { guestQuotaInDatabase, parseGuestQuota } from './guest-quota.ts';
import { isIpBlockedInDatabase } from './destination.ts';
import type { LinksDependencies } from './handler.ts';

export function linksDependenciesFromEnv(env: EnvReader = Deno.env): LinksDependencies {
  return {
    guest: {
      botCheck: botCheckFromEnv(env),
      whitelist: botCheckWhitelistFromEnv(env),
      countryOf,
    },
    guestQuota: guestQuotaInDatabase(parseGuestQuota(env.get('GUEST_LINK_RATE_LIMIT'))),
    trustedProxies: parseTrustedProxies(env.get('TRUSTED_PROXIES')),
    isIpBlocked: isIpBlockedInDatabase,
    now: () => new Date(),
    shortUrlBase: shortUrlBaseFromEnv(env),
  };
}
