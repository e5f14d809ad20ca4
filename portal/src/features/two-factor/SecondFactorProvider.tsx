import { useEffect, useState, type ReactNode } from 'react';
import { applyAuthStateUpdate } from '../../auth/authStateUpdate.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { secondFactorDue } from './assurance.ts';
import { SecondFactorContext } from './secondFactorContext.ts';

/** Follows the session's assurance level beside the auth provider (same events, same render). */
export function SecondFactorProvider({ children }: { children: ReactNode }) {
  const supabase = useSupabase();
  const [due, setDue] = useState<boolean | null>(null);
  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      // Rendered with the auth provider's update for the same event.
      applyAuthStateUpdate(event, () => setDue(secondFactorDue(session)));
    });
    return () => data.subscription.unsubscribe();
  }, [supabase]);
  return <SecondFactorContext value={due}>{children}</SecondFactorContext>;
}
