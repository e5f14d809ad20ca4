import type { SupabaseClient, User } from '@supabase/supabase-js';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { AuthContext, type Auth, type Credentials } from './AuthContext.ts';

interface Props {
  client: SupabaseClient;
  /** Called when the session ends (here or in another tab), so cached data of that user goes. */
  onSignedOut?: () => void;
  children: ReactNode;
}

/** Follows supabase-js's session and offers sign-in and sign-out to the pages. */
export function SupabaseAuthProvider({ client, onSignedOut, children }: Props) {
  const [state, setState] = useState<{ loaded: boolean; user: User | null }>({
    loaded: false,
    user: null,
  });

  useEffect(() => {
    // INITIAL_SESSION arrives first with the stored session (or none); later events follow
    // sign-in, sign-out, token refreshes and changes made in other tabs.
    const { data } = client.auth.onAuthStateChange((event, session) => {
      setState({ loaded: true, user: session?.user ?? null });
      if (event === 'SIGNED_OUT') onSignedOut?.();
    });
    return () => data.subscription.unsubscribe();
  }, [client, onSignedOut]);

  const auth = useMemo<Auth>(
    () => ({
      status: !state.loaded ? 'loading' : state.user ? 'signedIn' : 'guest',
      user: state.user,
      async signIn({ email, password }: Credentials) {
        const { error } = await client.auth.signInWithPassword({ email, password });
        return error;
      },
      async signOut() {
        const { error } = await client.auth.signOut();
        return error;
      },
    }),
    [client, state],
  );

  return <AuthContext value={auth}>{children}</AuthContext>;
}
