import type { AuthChangeEvent } from '@supabase/supabase-js';
import { startTransition } from 'react';

/**
 * Applies a state update for an auth event. The stored session known at start (INITIAL_SESSION)
 * renders the signed-in shell and page, often with their data already in (routes/firstRequests.ts):
 * in a transition, in slices, not one long task. Signing in and out later stay urgent.
 */
export function applyAuthStateUpdate(event: AuthChangeEvent, update: () => void): void {
  if (event === 'INITIAL_SESSION') startTransition(update);
  else update();
}
