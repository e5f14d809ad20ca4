import { useCallback, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { BaseProviders, StateProviders } from './AppProviders.tsx';
import { SupabaseAuthProvider } from './auth/SupabaseAuthProvider.tsx';
import { createQueryClient } from './lib/queryClient.ts';
import type { PortalServices } from './lib/services.ts';
import { routes } from './routes/routeTable.tsx';

export function App({ services }: { services: PortalServices }) {
  const [queryClient] = useState(createQueryClient);
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
