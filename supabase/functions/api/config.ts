/**
 * The function's dependencies from its environment:
 *
 *   API_RATE_LIMIT     calls per token, "<count>/<window>" with s, m or h (default 60/1m)
 *   API_DOC_BASE_URL   the portal's origin: error bodies link to <it>/app/dev#error-<code>
 *                      (default https://shortlane.app)
 *   SHORT_URL_BASE     where short domains are served, for tiny_url (_shared/short-url.ts)
 */
import type { EnvReader } from '../_shared/bot-check/env.ts';
import { shortUrlBaseFromEnv } from '../_shared/short-url.ts';
import { parseGuestQuota } from '../links/guest-quota.ts';
import type { ApiDependencies } from './app.ts';
import { docUrlFrom } from './errors.ts';
import { gateInDatabase } from './gate.ts';

export const DEFAULT_API_RATE_LIMIT = { limit: 60, windowSeconds: 60 };
export const DEFAULT_DOC_BASE_URL = 'https://shortlane.app';

export function apiDependenciesFromEnv(env: EnvReader = Deno.env): ApiDependencies {
  return {
    gate: gateInDatabase(
      parseGuestQuota(env.get('API_RATE_LIMIT'), 'API_RATE_LIMIT', DEFAULT_API_RATE_LIMIT),
    ),
    shortUrlBase: shortUrlBaseFromEnv(env),
    docUrl: docUrlFrom(env.get('API_DOC_BASE_URL') ?? DEFAULT_DOC_BASE_URL),
    now: () => new Date(),
  };
}
