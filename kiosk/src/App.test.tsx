import { createClient } from '@supabase/supabase-js';
import { render, screen, within } from '@testing-library/react';
import type { AuthProvider, DataProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './App.tsx';
import { createAuthProvider } from './providers/authProvider.ts';
import { createDataProvider } from './providers/dataProvider.ts';

const config = { portalUrl: 'http://127.0.0.1:59998' };
const SLOW = 30_000;

/** Someone signed in (a stored session), staff or not as the database would answer. */
function signedIn(isStaff: boolean): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ id: 'u1', fullName: 'ada@example.com' }),
    canAccess: vi.fn(async () => isStaff),
  };
}

/** The users list as PostgREST would answer it (other resources: empty). */
function usersData(): DataProvider {
  const empty = { data: [], total: 0 };
  const users = [
    {
      id: 'u1',
      email: 'ada@example.com',
      name: 'Ada',
      plan: 'pro',
      subscription_state: 'trial',
      links_count: 3,
      is_banned: false,
      is_developer: false,
      created_at: '2026-11-01T10:00:00Z',
    },
    {
      id: 'u2',
      email: 'bob@example.com',
      name: 'Bob',
      plan: 'free',
      subscription_state: 'free',
      links_count: 0,
      is_banned: true,
      is_developer: false,
      created_at: '2026-11-02T10:00:00Z',
    },
  ];
  return {
    getList: vi.fn(async (resource: string) =>
      resource === 'users' ? { data: users, total: 2 } : empty,
    ),
    getOne: vi.fn(async () => ({ data: users[0] })),
    getMany: vi.fn(async () => ({ data: [] })),
    getManyReference: vi.fn(async () => empty),
    create: vi.fn(),
    update: vi.fn(),
    updateMany: vi.fn(),
    delete: vi.fn(),
    deleteMany: vi.fn(),
  } as unknown as DataProvider;
}

describe('kiosk App', () => {
  afterEach(() => window.history.pushState({}, '', '/'));

  it(
    'shows a visitor without a session ra-supabase’s login page',
    async () => {
      const env = { supabaseUrl: 'http://127.0.0.1:59999', supabaseAnonKey: 'anon-key' };
      // No stored session: ra-supabase's checkAuth decides from storage, with no request.
      const client = createClient(env.supabaseUrl, env.supabaseAnonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
      });
      render(
        <App
          authProvider={createAuthProvider(client)}
          dataProvider={createDataProvider({ env, client })}
          config={config}
        />,
      );
      expect(
        await screen.findByRole('textbox', { name: 'Email' }, { timeout: SLOW }),
      ).toBeInTheDocument();
      expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
      expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
      expect(screen.queryByText('Shortlane kiosk')).not.toBeInTheDocument();
    },
    SLOW,
  );

  it(
    'shows a signed-in user who is not staff the access-denied page, and no kiosk',
    async () => {
      const dataProvider = usersData();
      render(<App authProvider={signedIn(false)} dataProvider={dataProvider} config={config} />);
      expect(
        await screen.findByRole('heading', { name: 'Access denied' }, { timeout: SLOW }),
      ).toBeInTheDocument();
      // The identity arrives after the page: the alert names the account once it has.
      expect(
        await screen.findByText(/ada@example\.com is not a staff account/, {}, { timeout: SLOW }),
      ).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent('The kiosk is for Shortlane staff only.');
      expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
      expect(screen.queryByRole('menu')).not.toBeInTheDocument();
      expect(screen.queryByText('bob@example.com')).not.toBeInTheDocument();
    },
    SLOW,
  );

  it(
    'opens on the users list for staff, with the kiosk menu',
    async () => {
      const dataProvider = usersData();
      render(<App authProvider={signedIn(true)} dataProvider={dataProvider} config={config} />);
      expect(await screen.findByText('bob@example.com', {}, { timeout: SLOW })).toBeInTheDocument();
      expect(window.location.pathname).toBe('/users');
      const table = screen.getByRole('table');
      expect(within(table).getByText('ada@example.com')).toBeInTheDocument();
      expect(within(table).getByText('banned')).toBeInTheDocument();
      for (const item of [
        'Users',
        'Aliases',
        'Long URLs',
        'System stats',
        'Banned domains',
        'DNS zones',
      ]) {
        expect(screen.getAllByText(item).length).toBeGreaterThan(0);
      }
      expect(screen.queryByRole('heading', { name: 'Access denied' })).not.toBeInTheDocument();
      expect(dataProvider.getList).toHaveBeenCalledWith(
        'users',
        expect.objectContaining({ sort: { field: 'created_at', order: 'DESC' } }),
      );
    },
    SLOW,
  );
});
