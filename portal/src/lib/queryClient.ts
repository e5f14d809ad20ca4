import { QueryClient } from '@tanstack/react-query';

/**
 * How long an answer counts as fresh: a page that mounts just after its data arrived (a route's
 * Prefetch, another view of the same list) uses it instead of asking again.
 */
export const STALE_TIME_MS = 30_000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        // A 4xx will not change on retry (RLS refusals, missing rows); network blips might.
        retry: (failureCount, error) => failureCount < 2 && !isClientError(error),
      },
    },
  });
}

function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
