import type { AuthError, User } from '@supabase/supabase-js';
import { createContext, useContext } from 'react';

/** Who is using the portal, as the route guards and pages see it. */
export type AuthStatus = 'loading' | 'guest' | 'signedIn';

export interface Credentials {
  email: string;
  password: string;
}

export interface Auth {
  /** `loading` until the stored session has been read. */
  status: AuthStatus;
  user: User | null;
  /** Resolves with the error Supabase Auth answered, or null once signed in. */
  signIn(credentials: Credentials): Promise<AuthError | null>;
  /** Resolves with the error Supabase Auth answered, or null once signed out. */
  signOut(): Promise<AuthError | null>;
}

export const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth() needs an <AuthContext> provider above it.');
  return auth;
}
