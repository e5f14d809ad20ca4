import type { SupabaseClient, User } from '@supabase/supabase-js';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { AuthContext, type Auth, type Credentials } from './AuthContext.ts';
import { applyAuthStateUpdate } from './authStateUpdate.ts';
import { landingAuthRedirect, type AuthRedirect } from './authRedirect.ts';
import { announceSignedIn } from './stateStatus.ts';

interface Props {
  client: SupabaseClient;
  /** Called when the session ends (here or in another tab), so cached data of that user goes. */
  onSignedOut?: () => void;
  /** What an e-mail link brought in the address; tests give their own. */
  landing?: AuthRedirect | null;
  /** Where the cross-tab login state is written. */
  storage?: Pick<Storage, 'setItem'>;
  children: ReactNode;
}

/** Follows supabase-js's session and offers sign-in and sign-out to the pages. */
export function SupabaseAuthProvider({
  client,
  onSignedOut,
  landing = landingAuthRedirect,
  storage = window.localStorage,
  children,
}: Props) {
  const [state, setState] = useState<{ loaded: boolean; user: User | null }>({
    loaded: false,
    user: null,
  });
  // From the first render: supabase-js reports INITIAL_SESSION before PASSWORD_RECOVERY, and the
  // reset page must not mistake the recovery session for an ordinary one in between.
  const [passwordRecovery, setPasswordRecovery] = useState(landing?.type === 'recovery');

  useEffect(() => {
    let landingAnnounced = false;
    // INITIAL_SESSION arrives first with the stored session (or none); later events follow
    // sign-in, sign-out, token refreshes and changes made in other tabs.
    const { data } = client.auth.onAuthStateChange((event, session) => {
      applyAuthStateUpdate(event, () => setState({ loaded: true, user: session?.user ?? null }));
      if (event === 'PASSWORD_RECOVERY') setPasswordRecovery(true);
      if (event === 'USER_UPDATED' || event === 'SIGNED_OUT') setPasswordRecovery(false);
      if (event === 'SIGNED_OUT') onSignedOut?.();
      // An e-mail link signed this tab in: the other tabs follow, as after a login.
      if (landing && session && !landingAnnounced) {
        landingAnnounced = true;
        announceSignedIn(storage);
      }
    });
    return () => data.subscription.unsubscribe();
  }, [client, onSignedOut, landing, storage]);

  const auth = useMemo<Auth>(
    () => ({
      status: !state.loaded ? 'loading' : state.user ? 'signedIn' : 'guest',
      user: state.user,
      passwordRecovery: passwordRecovery && state.user != null,
      async signIn({ email, password }: Credentials) {
        const { error } = await client.auth.signInWithPassword({ email, password });
        if (!error) announceSignedIn(storage);
        return error;
      },
      async signOut(scope = 'global') {
        const { error } = await client.auth.signOut({ scope });
        return error;
      },
    }),
    [client, state, passwordRecovery, storage],
  );
  return <AuthContext value={auth}>{children}</AuthContext>;
}
