import { createClient } from '@supabase/supabase-js';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from './App.tsx';
import { createAuthProvider } from './providers/authProvider.ts';
import { createDataProvider } from './providers/dataProvider.ts';

describe('kiosk App', () => {
  it('shows a visitor without a session ra-supabase’s login page', async () => {
    const env = { supabaseUrl: 'http://127.0.0.1:59999', supabaseAnonKey: 'anon-key' };
    // No stored session: ra-supabase's checkAuth decides from storage, with no request.
    const client = createClient(env.supabaseUrl, env.supabaseAnonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    render(
      <App
        authProvider={createAuthProvider(client)}
        dataProvider={createDataProvider({ env, client })}
      />,
    );
    expect(
      await screen.findByRole('textbox', { name: 'Email' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByText('Shortlane kiosk')).not.toBeInTheDocument();
  });
});
