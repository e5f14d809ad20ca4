import type { AuthError, User } from '@supabase/supabase-js';
import { createContext, useContext } from 'react';

/** Who is using the portal, as the route guards and pages see it. */
export type AuthStatus = 'loading' | 'guest' | 'signedIn';

export interface Credentials {
  email: string;
  password: string;
}

export type SignOutScope = 'global' | 'local';

export interface Auth {
  /** `loading` until the stored session has been read. */
  status: AuthStatus;
  user: User | null;
  /** Resolves with the error Supabase Auth answered, or null once signed in. */
  signIn(credentials: Credentials): Promise<AuthError | null>;
  /**
   * Resolves with the error Supabase Auth answered, or null once signed out. `global` (the
   * default) ends every session of the user; `local` only forgets this browser's, as a tab
   * following another tab's logout does.
   */
  signOut(scope?: SignOutScope): Promise<AuthError | null>;
  /**
   * True while the session came from a password-recovery link (the e-mail's link or a recovery
   * token) and no new password has been set yet: password/reset/{token} then asks for one
   * instead of sending a signed-in user away.
   */
  passwordRecovery?: boolean;
}

export const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth() needs an <AuthContext> provider above it.');
  return auth;
}
