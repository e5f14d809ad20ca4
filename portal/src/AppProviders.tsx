import { MantineProvider } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { takePendingNotice } from './auth/sessionExpiry.ts';
import { SecondFactorProvider } from './features/two-factor/SecondFactorProvider.tsx';
import type { PortalServices } from './lib/services.ts';
import { ServicesContext, useServices } from './lib/servicesContext.ts';
import { AppStateProvider } from './state/AppStateProvider.tsx';
import { themeProps } from './theme.ts';

// No notice shows on the first paint; the container loads just after it. Notices shown before
// it arrives wait in the store.
const NoticesContainer = lazy(() => import('./notices/NoticesContainer.tsx'));

/** Theme, services and the query cache: what everything else needs. */
export function BaseProviders({
  services,
  queryClient,
  mantineEnv = 'default',
  children,
}: {
  services: PortalServices;
  queryClient: QueryClient;
  /** 'test' turns Mantine's transitions and portals off (component tests). */
  mantineEnv?: 'default' | 'test';
  children: ReactNode;
}) {
  return (
    <MantineProvider {...themeProps} env={mantineEnv}>
      <ServicesContext value={services}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </ServicesContext>
    </MantineProvider>
  );
}

/** Says what a reload left to say (the session expired). */
function PendingNotice() {
  const { notify } = useServices();
  useEffect(() => {
    const message = takePendingNotice(window.sessionStorage);
    if (message) notify({ message, durationMs: NOTICE_DURATION_MS.globalError, tone: 'error' });
  }, [notify]);
  return null;
}

/** Below the auth provider: the shared state and the notices. */
export function StateProviders({ children }: { children: ReactNode }) {
  const { noticeStore } = useServices();
  return (
    // Above the shared state: no account query may run before the session's second factor.
    <SecondFactorProvider>
      <AppStateProvider>
        <Suspense fallback={null}>
          <NoticesContainer store={noticeStore} />
        </Suspense>
        <PendingNotice />
        {children}
      </AppStateProvider>
    </SecondFactorProvider>
  );
}
