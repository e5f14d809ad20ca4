import type { SupabaseClient, User } from '@supabase/supabase-js';
import type { AuthProvider, UserIdentity } from 'react-admin';
import { supabaseAuthProvider } from 'ra-supabase';
import { createStaffCheck } from './staffCheck.ts';

/** How the kiosk names a signed-in staff member (the app bar, the access-denied page). */
export function identityOf(user: User): UserIdentity {
  return { id: user.id, fullName: user.email ?? user.phone ?? user.id };
}

/** react-admin's /auth-callback route, where ra-supabase reads the tokens Auth appends. */
export const authCallbackUrl = () => `${window.location.origin}/auth-callback`;

/**
 * ra-supabase's auth provider (login with e-mail and password, checkAuth from the stored
 * session, getIdentity from GET /auth/v1/user) plus canAccess: staff only, whatever the resource
 * or action. Non-staff who sign in are authenticated but may access nothing, so the kiosk shows
 * them the access-denied page; row-level security keeps the data from them either way.
 */
export function createAuthProvider(
  client: SupabaseClient,
  isStaff: () => Promise<boolean> = createStaffCheck(client),
): AuthProvider {
  const base = supabaseAuthProvider(client, { getIdentity: async (user) => identityOf(user) });
  return {
    ...base,
    // Without a redirect, Auth sends recovery links to its site URL: the portal, not the kiosk.
    resetPassword: (params: Parameters<typeof base.resetPassword>[0]) =>
      base.resetPassword({ redirectTo: authCallbackUrl(), ...params }),
    canAccess: () => isStaff(),
  };
}
