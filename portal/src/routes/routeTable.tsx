import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader.tsx';
import { GuestOnly, RequireLogin } from './guards.tsx';
import { paths, type RouteName } from './paths.ts';

/** Who may open a page: anyone, only guests, or only signed-in users. */
export type Access = 'public' | 'guest' | 'login';

interface AppRoute {
  name: RouteName;
  access: Access;
  page: LazyExoticComponent<ComponentType>;
}

/** The portal's pages, each loaded on first visit. Mirrors the spec's /app/... routes. */
export const ROUTES: readonly AppRoute[] = [
  {
    name: 'homepage',
    access: 'login',
    page: lazy(() => import('../pages/HomePage/HomePage.tsx')),
  },
  {
    name: 'login',
    access: 'guest',
    page: lazy(() => import('../pages/LoginPage/LoginPage.tsx')),
  },
];

function guarded(access: Access, Page: ComponentType) {
  if (access === 'login') return <RequireLogin>{<Page />}</RequireLogin>;
  if (access === 'guest') return <GuestOnly>{<Page />}</GuestOnly>;
  return <Page />;
}

function SuspendedOutlet() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

/** The route objects for react-router: the table above plus "unknown paths go home". */
export const routes: RouteObject[] = [
  {
    element: <SuspendedOutlet />,
    children: [
      ...ROUTES.map(({ name, access, page }) => ({
        path: paths[name],
        element: guarded(access, page),
      })),
      { path: '*', element: <Navigate to={paths.homepage} replace /> },
    ],
  },
];
