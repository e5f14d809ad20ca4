/**
 * Where short domains are served, for the short URLs functions answer (links' tiny_url, the
 * bulk result CSV): SHORT_URL_BASE, such as `http://{domain}:54321` on the local stack (set by
 * supabase/local); unset in production, where it is `https://{domain}`. A malformed value throws,
 * so the function fails at start-up with the variable named instead of answering dead links.
 */
import {
  parseShortUrlBase,
  SHORT_URL_BASE_VARIABLE,
  type ShortUrlBase,
} from '../../../shared/src/short-url.ts';
import type { EnvReader } from './bot-check/env.ts';

export { shortUrl, type ShortUrlBase } from '../../../shared/src/short-url.ts';

export function shortUrlBaseFromEnv(env: EnvReader = Deno.env): ShortUrlBase {
  return parseShortUrlBase(env.get(SHORT_URL_BASE_VARIABLE));
}
