import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { useSupabase } from '../../lib/servicesContext.ts';
import { secondFactorDue } from './assurance.ts';
import { SecondFactorContext } from './secondFactorContext.ts';

/** Follows the session's assurance level beside the auth provider (same events, same render). */
export function SecondFactorProvider({ children }: { children: ReactNode }) {
  const supabase = useSupabase();
  const [due, setDue] = useState<boolean | null>(null);
  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      const due = secondFactorDue(session);
      // As the auth provider does: the start's session renders in a transition, with it.
      if (event === 'INITIAL_SESSION') startTransition(() => setDue(due));
      else setDue(due);
    });
    return () => data.subscription.unsubscribe();
  }, [supabase]);
  return <SecondFactorContext value={due}>{children}</SecondFactorContext>;
}
