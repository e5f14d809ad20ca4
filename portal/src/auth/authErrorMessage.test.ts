import {
  AuthApiError,
  AuthRetryableFetchError,
  AuthWeakPasswordError,
} from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { authErrorMessage, SOMETHING_WENT_WRONG } from './authErrorMessage.ts';

describe('authErrorMessage', () => {
  it('words the GoTrue codes people meet at login', () => {
    expect(
      authErrorMessage(new AuthApiError('Invalid login credentials', 400, 'invalid_credentials')),
    ).toBe('Wrong e-mail or password.');
    expect(
      authErrorMessage(new AuthApiError('Email not confirmed', 400, 'email_not_confirmed')),
    ).toBe('Confirm your e-mail address first: follow the link we sent you.');
    expect(authErrorMessage(new AuthApiError('User is banned', 403, 'user_banned'))).toBe(
      'This account was terminated because it violated the terms',
    );
  });

  it('keeps the words of a password hook refusing the sign-in (single sign-on required)', () => {
    const message = 'Your organization requires single sign-on. Use "Sign in with SSO".';
    expect(authErrorMessage(new AuthApiError(message, 400, 'invalid_credentials'))).toBe(message);
  });

  it('treats any 429 as too many attempts', () => {
    expect(authErrorMessage(new AuthApiError('Slow down', 429, undefined))).toBe(
      'Too many attempts. Wait a moment and try again.',
    );
  });

  it('says something went wrong for network failures and server errors', () => {
    expect(authErrorMessage(new AuthRetryableFetchError('Failed to fetch', 0))).toBe(
      SOMETHING_WENT_WRONG,
    );
    expect(authErrorMessage(new AuthApiError('boom', 500, 'unexpected_failure'))).toBe(
      SOMETHING_WENT_WRONG,
    );
  });

  it('keeps the server message for codes it does not word itself', () => {
    expect(
      authErrorMessage(new AuthWeakPasswordError('Password is known to be weak', 422, ['pwned'])),
    ).toBe('Password is known to be weak');
  });
});
