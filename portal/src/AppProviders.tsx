import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { takePendingNotice } from './auth/sessionExpiry.ts';
import type { PortalServices } from './lib/services.ts';
import { ServicesContext, useServices } from './lib/servicesContext.ts';
import { AppStateProvider } from './state/AppStateProvider.tsx';
import { themeProps } from './theme.ts';

/** Theme, services and the query cache: what everything else needs. */
export function BaseProviders({
  services,
  queryClient,
  children,
}: {
  services: PortalServices;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <MantineProvider {...themeProps}>
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
    <AppStateProvider>
      <Notifications store={noticeStore} position="top-right" />
      <PendingNotice />
      {children}
    </AppStateProvider>
  );
}
