import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render as rtlRender } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactElement, type ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import { routes } from '../routes/routeTable.tsx';
import { themeProps } from '../theme.ts';
import { TestAuthProvider, type TestAuthOptions } from './auth.tsx';

interface RenderOptions {
  /** The URL the memory router starts at. */
  route?: string;
  auth?: TestAuthOptions;
}

function Providers({ auth, children }: { auth: TestAuthOptions; children: ReactNode }) {
  // A fresh cache per test, without retries, so a failure shows at once.
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  );
  return (
    <MantineProvider {...themeProps}>
      <QueryClientProvider client={queryClient}>
        <TestAuthProvider options={auth}>{children}</TestAuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** Renders one component with the portal's providers inside a memory router. */
export function render(ui: ReactElement, { route = '/', auth = {} }: RenderOptions = {}) {
  return {
    user: userEvent.setup(),
    ...rtlRender(
      <Providers auth={auth}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </Providers>,
    ),
  };
}

/** Renders the whole route table at `route`; `router.state.location` tells where it ended up. */
export function renderApp({ route = '/app', auth = {} }: RenderOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  return {
    router,
    user: userEvent.setup(),
    ...rtlRender(
      <Providers auth={auth}>
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
