import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader.tsx';
import { CouponMemory } from './CouponMemory.tsx';
import { RouteFocus } from './RouteFocus.tsx';
import { ShellLayout } from './ShellLayout.tsx';

/** Every route renders inside the shell; pages load on first visit. */
export function RootLayout() {
  return (
    <>
      <CouponMemory />
      <RouteFocus />
      <ShellLayout>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </ShellLayout>
    </>
  );
}
