import { mapApiError } from '@shortlane/shared/errors.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { ApiError } from '../../data/unwrap.ts';

/**
 * What a plan leaves out, said where the portal knows it beforehand (the access RPCs' periods)
 * in the words the analytics RPCs use when they refuse.
 */
export const ANALYTICS_PLAN_MESSAGES = {
  notIncluded: 'Your plan does not include analytics.',
  periodNotIncluded: 'Your plan does not include analytics for this period.',
} as const;

/** The analytics RPCs' error code (`message` of the PostgREST body), if any. */
export function analyticsErrorCode(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body;
  return typeof body === 'object' && body !== null && 'message' in body
    ? String((body as { message: unknown }).message)
    : null;
}

/**
 * What to tell the reader about a failed analytics call: the server's own sentence (the
 * `details` of the RPC errors, e.g. "Your plan does not include analytics."), the spec's
 * message for shared codes, or the status's global text.
 */
export function analyticsErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return MESSAGES.somethingWentWrong;
  const body = error.body;
  if (typeof body === 'object' && body !== null && 'details' in body) {
    const details = (body as { details: unknown }).details;
    if (typeof details === 'string' && details !== '') return details;
  }
  return mapApiError(error.status, body).notices[0] ?? MESSAGES.somethingWentWrong;
}
