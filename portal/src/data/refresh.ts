import type { QueryClient } from '@tanstack/react-query';
import { userScope } from './keys.ts';

/**
 * The spec's "state refresh" (GET state): everything known about the signed-in user is fetched
 * again — after login, a team switch, a subscription change or any action that moves it.
 */
export function refreshAppState(queryClient: QueryClient, userId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: userScope(userId) });
}
