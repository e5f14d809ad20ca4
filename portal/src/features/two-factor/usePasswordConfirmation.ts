import { useCallback } from 'react';
import { useAuth } from '../../auth/AuthContext.ts';
import { authErrorMessage } from '../../auth/authErrorMessage.ts';
import { WRONG_PASSWORD } from '../../auth/reauthenticate.ts';
import { useServices } from '../../lib/servicesContext.ts';
import { endAside, signInAside } from './signInAside.ts';

/**
 * Checks the signed-in user's password without touching their session (see signInAside).
 * Resolves with the message for the password field, or null when it was right.
 */
export function usePasswordCheck(): (password: string) => Promise<string | null> {
  const { env, apiFetch } = useServices();
  const email = useAuth().user?.email;
  return useCallback(
    async (password: string) => {
      if (password === '') return 'The password field is required.';
      if (!email) return 'Something went wrong. Please try again.';
      const aside = await signInAside(env, email, password, apiFetch);
      if (aside instanceof Error) {
        return aside.code === 'invalid_credentials' ? WRONG_PASSWORD : authErrorMessage(aside);
      }
      await endAside(aside);
      return null;
    },
    [env, apiFetch, email],
  );
}

/** Opens the confirm-password modal; true once the user typed their password right. */
export function usePasswordConfirmation(): () => Promise<boolean> {
  const { dialogs } = useServices();
  const check = usePasswordCheck();
  return useCallback(() => dialogs.confirmPassword(check), [dialogs, check]);
}
