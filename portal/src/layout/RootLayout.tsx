import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader.tsx';
import { SessionSync } from '../auth/SessionSync.tsx';
import { DialogsHost } from '../dialogs/DialogsHost.tsx';
import { NoBackupCodesPrompt } from '../features/two-factor/NoBackupCodesPrompt.tsx';
import { CouponMemory } from './CouponMemory.tsx';
import { RouteFocus } from './RouteFocus.tsx';
import { ShellLayout } from './ShellLayout.tsx';

/**
 * Every route renders inside the shell; pages load on first visit. The modals render here,
 * inside the router, as their messages may link to pages.
 */
export function RootLayout() {
  return (
    <>
      <SessionSync />
      <CouponMemory />
      <RouteFocus />
      <ShellLayout>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </ShellLayout>
      <DialogsHost />
      <NoBackupCodesPrompt />
    </>
  );
}
