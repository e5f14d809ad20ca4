import type { QueryClient } from '@tanstack/react-query';
import { accountLimitKeys, analyticsKeys, linkKeys } from './keys.ts';

/**
 * What a new link (or batch) makes stale: the user's link lists, their analytics and the limits
 * data the create popover reads.
 */
export function invalidateAfterLinkCreation(
  queryClient: QueryClient,
  userId: string | null,
): Promise<unknown> {
  if (userId == null) return Promise.resolve();
  return Promise.all(
    [linkKeys.all(userId), analyticsKeys.all(userId), accountLimitKeys.all(userId)].map(
      (queryKey) => queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
