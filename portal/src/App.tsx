import type { QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { BaseProviders, StateProviders } from './AppProviders.tsx';
import { SupabaseAuthProvider } from './auth/SupabaseAuthProvider.tsx';
import type { PortalServices } from './lib/services.ts';
import { routes } from './routes/routeTable.tsx';

/** The query client comes from the entry, which starts the first page's requests in it. */
export function App({
  services,
  queryClient,
}: {
  services: PortalServices;
  queryClient: QueryClient;
}) {
  const [router] = useState(() => createBrowserRouter(routes));
  // Nothing cached for one user may be shown to the next; this is also the state refresh.
  const forgetCachedData = useCallback(() => queryClient.clear(), [queryClient]);

  return (
    <BaseProviders services={services} queryClient={queryClient}>
      <SupabaseAuthProvider client={services.supabase} onSignedOut={forgetCachedData}>
        <StateProviders>
          <RouterProvider router={router} />
        </StateProviders>
      </SupabaseAuthProvider>
    </BaseProviders>
  );
}
