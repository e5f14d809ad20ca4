import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { useAuth } from '../auth/AuthContext.ts';
import { PageLoader } from '../components/PageLoader.tsx';
import { loginPathFor, paths, RETURN_PARAM, safeReturnPath } from './paths.ts';

/** Pages for signed-in users: a guest goes to the login page, which brings them back here. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <PageLoader />;
  if (status === 'guest') {
    return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  }
  return children;
}

/**
 * Pages for guests only (login, register…): a signed-in user goes to the homepage, or to the
 * page they were sent to log in for. That is also how a successful login moves on.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const [searchParams] = useSearchParams();
  if (status === 'loading') return <PageLoader />;
  if (status === 'signedIn') {
    const target = safeReturnPath(searchParams.get(RETURN_PARAM)) ?? paths.homepage;
    return <Navigate to={target} replace />;
  }
  return children;
}
