import type { AuthError, User } from '@supabase/supabase-js';
import { useMemo, useState, type ReactNode } from 'react';
import { AuthContext, type Auth, type AuthStatus, type Credentials } from '../auth/AuthContext.ts';

/**
 * Stands in for Supabase Auth in component tests: it keeps a session the way the real provider
 * does (signing in switches to `signedIn`, signing out back to `guest`), while each test decides
 * what the server answers. The real wiring is covered by the e2e suite against the local stack.
 */
export interface TestAuthOptions {
  /** Start signed in as this user, or as a guest when undefined. */
  user?: User;
  /** Start before the session is known. */
  loading?: boolean;
  /** The server's answer to a sign-in; default: success as that e-mail. */
  signIn?: (credentials: Credentials) => Promise<AuthError | null>;
  signOut?: () => Promise<AuthError | null>;
}

export function testUser(email = 'ada@example.com', overrides: Partial<User> = {}): User {
  return {
    id: '6d0c4a43-3f4b-4f3e-9a53-0c1f3b7a9e10',
    email,
    aud: 'authenticated',
    role: 'authenticated',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    created_at: '2024-11-18T00:00:00Z',
    ...overrides,
  };
}

export function TestAuthProvider({
  options,
  children,
}: {
  options: TestAuthOptions;
  children: ReactNode;
}) {
  const [user, setUser] = useState<User | null>(options.user ?? null);
  const status: AuthStatus = options.loading ? 'loading' : user ? 'signedIn' : 'guest';
  const auth = useMemo<Auth>(
    () => ({
      status,
      user,
      async signIn(credentials) {
        const error = options.signIn ? await options.signIn(credentials) : null;
        if (!error) setUser(testUser(credentials.email));
        return error;
      },
      async signOut() {
        const error = options.signOut ? await options.signOut() : null;
        if (!error) setUser(null);
        return error;
      },
    }),
    [options, status, user],
  );
  return <AuthContext value={auth}>{children}</AuthContext>;
}
