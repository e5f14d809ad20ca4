import type { Credentials } from '../../auth/AuthContext.ts';

/** A pragmatic shape check; the server has the final word on whether the address exists. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const LOGIN_MESSAGES = {
  emailMissing: 'Enter your e-mail address.',
  emailInvalid: 'Enter a valid e-mail address.',
  passwordMissing: 'Enter your password.',
} as const;

export const emptyCredentials: Credentials = { email: '', password: '' };

export const validateLogin = {
  email: (value: string) =>
    !value.trim()
      ? LOGIN_MESSAGES.emailMissing
      : EMAIL.test(value.trim())
        ? null
        : LOGIN_MESSAGES.emailInvalid,
  password: (value: string) => (value ? null : LOGIN_MESSAGES.passwordMissing),
};
