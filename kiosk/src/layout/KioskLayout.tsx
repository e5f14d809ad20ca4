import type { ReactNode } from 'react';
import { Layout, Loading, useCanAccess } from 'react-admin';
import { AccessDenied, StaffCheckFailed } from './AccessDenied.tsx';
import { KioskMenu } from './KioskMenu.tsx';

/**
 * Every page inside the kiosk's layout first asks whether the signed-in user is staff
 * (authProvider.canAccess): staff get the kiosk, anyone else the access-denied page, with no
 * menu and no screens behind it.
 */
export function KioskLayout({ children }: { children: ReactNode }) {
  const { isPending, canAccess, error } = useCanAccess({ resource: 'kiosk', action: 'access' });
  if (isPending) return <Loading />;
  if (error) {
    return <StaffCheckFailed message={error instanceof Error ? error.message : String(error)} />;
  }
  if (!canAccess) return <AccessDenied />;
  return <Layout menu={KioskMenu}>{children}</Layout>;
}
