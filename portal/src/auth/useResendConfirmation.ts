import type { AuthError } from '@supabase/supabase-js';
import { useState } from 'react';
import { useSupabase } from '../lib/servicesContext.ts';
import { authErrorMessage } from './authErrorMessage.ts';
import { emailVerificationRedirect } from './redirectUrls.ts';

export const CONFIRMATION_RESENT =
  'If this address is waiting for confirmation, a new link is on its way.';

export type ResendOutcome = { kind: 'sent' } | { kind: 'failed'; message: string };

/**
 * Asks Auth for another sign-up confirmation mail. Auth answers the same whether or not the
 * address has an account waiting, so the outcome says no more than that.
 */
export function useResendConfirmation() {
  const supabase = useSupabase();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ResendOutcome | null>(null);
  const resend = async (email: string) => {
    setBusy(true);
    setOutcome(null);
    let error: AuthError | null;
    try {
      ({ error } = await supabase.auth.resend({
        type: 'signup',
        email,
        options: { emailRedirectTo: emailVerificationRedirect() },
      }));
    } finally {
      setBusy(false);
    }
    setOutcome(error ? { kind: 'failed', message: authErrorMessage(error) } : { kind: 'sent' });
  };
  return { resend, busy, outcome };
}
