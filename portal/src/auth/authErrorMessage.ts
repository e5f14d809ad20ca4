import { MESSAGES } from '@shortlane/shared/messages.ts';
import { isAuthApiError, isAuthRetryableFetchError, type AuthError } from '@supabase/supabase-js';

export const SOMETHING_WENT_WRONG = MESSAGES.somethingWentWrong;

/** GoTrue error codes the portal words for people; anything else keeps the server's message. */
const AUTH_MESSAGES: Record<string, string> = {
  invalid_credentials: 'Wrong e-mail or password.',
  email_not_confirmed: 'Confirm your e-mail address first: follow the link we sent you.',
  user_banned: MESSAGES.accountTerminated,
  over_request_rate_limit: 'Too many attempts. Wait a moment and try again.',
};

const GOTRUE_INVALID_LOGIN = 'Invalid login credentials';

/** The sentence to show for an error answered by Supabase Auth. */
export function authErrorMessage(error: AuthError): string {
  if (isAuthRetryableFetchError(error) || (error.status ?? 0) >= 500) return SOMETHING_WENT_WRONG;
  // A password hook's refusal (e.g. an organization requiring single sign-on) keeps its words.
  if (error.code === 'invalid_credentials' && error.message !== GOTRUE_INVALID_LOGIN) {
    return error.message;
  }
  if (error.code && AUTH_MESSAGES[error.code]) return AUTH_MESSAGES[error.code]!;
  if (isAuthApiError(error) && error.status === 429) return AUTH_MESSAGES.over_request_rate_limit!;
  return error.message || SOMETHING_WENT_WRONG;
}
