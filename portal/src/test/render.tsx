import { QueryClient } from '@tanstack/react-query';
import { STALE_TIME_MS } from '../lib/queryClient.ts';
import { render as rtlRender } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactElement, type ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import { BaseProviders, StateProviders } from '../AppProviders.tsx';
import { DialogsHost } from '../dialogs/DialogsHost.tsx';
import { routes } from '../routes/routeTable.tsx';
import { testUser, TestAuthProvider, type TestAuthOptions } from './auth.tsx';
import { TestBackend } from './backend.ts';
import { createTestServices, type TestServices } from './services.ts';
import { scriptWorld, type TestWorld } from './world.ts';

export interface RenderOptions {
  /** The URL the memory router starts at. */
  route?: string;
  /** How auth behaves; by default signed in as `world.user`, or a guest. */
  auth?: TestAuthOptions;
  /** What the database holds; the backend is scripted from it. */
  world?: TestWorld;
  /** Start as a guest although `world` has a user (who may then log in). */
  startAsGuest?: boolean;
  /** The scripted server; pass one to add answers before rendering. */
  backend?: TestBackend;
  /** Services built beforehand (e.g. with a session started). */
  testServices?: TestServices;
}

function authFor(
  world: TestWorld,
  auth: TestAuthOptions | undefined,
  startAsGuest: boolean,
): TestAuthOptions {
  if (auth?.user || !world.user || startAsGuest) return auth ?? {};
  return {
    ...auth,
    user: testUser(world.user.email, {
      id: world.user.id,
      email_confirmed_at: world.user.emailConfirmed === false ? undefined : '2024-11-18T00:00:00Z',
    }),
  };
}

function Providers({
  testServices,
  auth,
  children,
}: {
  testServices: TestServices;
  auth: TestAuthOptions;
  children: ReactNode;
}) {
  // A fresh cache per test, without retries, so a failure shows at once; answers stay fresh as
  // long as the app's do, so a test sees the requests the app would make.
  const [queryClient] = useState(
    () =>
      new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: STALE_TIME_MS } } }),
  );
  return (
    <BaseProviders services={testServices.services} queryClient={queryClient} mantineEnv="test">
      <TestAuthProvider options={auth}>
        <StateProviders>{children}</StateProviders>
      </TestAuthProvider>
    </BaseProviders>
  );
}

function prepare(options: RenderOptions) {
  const world = options.world ?? {};
  const backend = scriptWorld(options.backend ?? new TestBackend(), world);
  const testServices = options.testServices ?? createTestServices(backend);
  return {
    backend,
    testServices,
    auth: authFor(world, options.auth, options.startAsGuest ?? false),
  };
}

/** Renders one component with the portal's providers (and its modals) inside a memory router. */
export function render(ui: ReactElement, options: RenderOptions = {}) {
  const { backend, testServices, auth } = prepare(options);
  return {
    user: userEvent.setup(),
    backend,
    testServices,
    ...testServices,
    ...rtlRender(
      <Providers testServices={testServices} auth={auth}>
        <MemoryRouter initialEntries={[options.route ?? '/']}>
          {ui}
          <DialogsHost />
        </MemoryRouter>
      </Providers>,
    ),
  };
}

/** Renders the whole route table at `route`; `router.state.location` tells where it ended up. */
export function renderApp(options: RenderOptions = {}) {
  const { backend, testServices, auth } = prepare(options);
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? '/app'] });
  return {
    router,
    backend,
    testServices,
    ...testServices,
    user: userEvent.setup(),
    ...rtlRender(
      <Providers testServices={testServices} auth={auth}>
        <RouterProvider router={router} />
      </Providers>,
    ),
  };
}

/** Where the router is now, as a path with its query string. */
export function currentUrl(router: ReturnType<typeof createMemoryRouter>): string {
  const { pathname, search } = router.state.location;
  return pathname + search;
}
