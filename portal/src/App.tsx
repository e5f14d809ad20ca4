import { MantineProvider } from '@mantine/core';
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SupabaseAuthProvider } from './auth/SupabaseAuthProvider.tsx';
import { createQueryClient } from './lib/queryClient.ts';
import { routes } from './routes/routeTable.tsx';
import { themeProps } from './theme.ts';

export function App({ supabase }: { supabase: SupabaseClient }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  // Nothing cached for one user may be shown to the next.
  const forgetCachedData = useCallback(() => queryClient.clear(), [queryClient]);

  return (
    <MantineProvider {...themeProps}>
      <QueryClientProvider client={queryClient}>
        <SupabaseAuthProvider client={supabase} onSignedOut={forgetCachedData}>
          <RouterProvider router={router} />
        </SupabaseAuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
