import { useAuth } from '../auth/AuthContext.ts';

/** The signed-in user's id, or null for a guest (and while the session loads). */
export function useUserId(): string | null {
  return useAuth().user?.id ?? null;
}
