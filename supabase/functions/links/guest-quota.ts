/**
 * How many links a guest may create from one client address (GUEST_LINK_RATE_LIMIT, e.g.
 * "10/1h": a count and a window in s, m or h). The count lives in Postgres
 * (app.hit_rate_limit), shared by every instance of the function. Beyond it the answer is 429
 * with a Retry-After and the message on the form's general error ('form', link-creation 8).
 * Every guest attempt that passes the request's own checks counts, admitted or not: the limit is
 * what stops an address from trying bot-check tokens without end, too.
 */
import { MESSAGES } from '../../../shared/src/messages.ts';
import { sql } from '../_shared/sql.ts';
import { fieldErrors } from './errors.ts';

export interface GuestQuota {
  limit: number;
  windowSeconds: number;
}

export const DEFAULT_GUEST_QUOTA: GuestQuota = { limit: 10, windowSeconds: 3600 };

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };
const QUOTA = /^(\d+)\s*\/\s*(\d+)\s*([smh])$/;

/** "<count>/<window>"; unset is the default, anything unreadable too, with a line in the log. */
export function parseGuestQuota(
  text: string | undefined,
  // The api function reads its per-token limit (API_RATE_LIMIT) in the same notation.
  variable = 'GUEST_LINK_RATE_LIMIT',
  fallback: GuestQuota = DEFAULT_GUEST_QUOTA,
): GuestQuota {
  if (text === undefined || text.trim() === '') return fallback;
  const match = QUOTA.exec(text.trim());
  const windowSeconds = match ? Number(match[2]) * UNIT_SECONDS[match[3]!]! : 0;
  if (!match || windowSeconds <= 0) {
    console.error(`${variable}: "${text}" is not like "10/1h"; using the default`);
    return fallback;
  }
  return { limit: Number(match[1]), windowSeconds };
}

/** Counts one attempt from `clientIp`: 0 when within the quota, else seconds until it resets. */
export type GuestQuotaCheck = (clientIp: string | null) => Promise<number>;

export function guestQuotaInDatabase(quota: GuestQuota): GuestQuotaCheck {
  return async (clientIp) => {
    // Guests without a usable address share one bucket: they are not let off the limit.
    const bucket = `guest_link:${clientIp ?? 'unknown'}`;
    const [row] = await sql()<{ retry_after: number }[]>`
      select app.hit_rate_limit(${bucket}, ${quota.limit},
        make_interval(secs => ${quota.windowSeconds})) as retry_after`;
    return row?.retry_after ?? 0;
  };
}

/** The refusal: 429, Retry-After, the message as the form's general error. */
export function guestQuotaExceeded(retryAfterSeconds: number) {
  const error = fieldErrors(429, 'too_many_attempts', { form: [MESSAGES.tooManyAttempts] });
  error.headers = { 'Retry-After': String(retryAfterSeconds) };
  return error;
}
