import { vi } from 'vitest';
import { readPortalConfig } from '../lib/config.ts';
import { createPortalServices, type PortalServices } from '../lib/services.ts';
import { json, type TestBackend } from './backend.ts';

export const TEST_SUPABASE_URL = 'http://stack.test';
export const TEST_ANON_KEY = 'test-anon-key';
/** Short domains served as the local stack serves them, so that tests see the port carried. */
export const TEST_SHORT_URL_BASE = 'http://{domain}:54321';

export interface TestServices {
  services: PortalServices;
  /** What a reload (session expired) and leaving the app (external links) would have done. */
  reload: ReturnType<typeof vi.fn<() => void>>;
  leave: ReturnType<typeof vi.fn<(url: string) => void>>;
}

/** The portal's real services, talking to `backend` instead of the network. */
let clients = 0;

export function createTestServices(
  backend: TestBackend,
  env: Record<string, unknown> = {},
): TestServices {
  const reload = vi.fn<() => void>();
  const leave = vi.fn<(url: string) => void>();
  const services = createPortalServices({
    env: { supabaseUrl: TEST_SUPABASE_URL, supabaseAnonKey: TEST_ANON_KEY },
    config: readPortalConfig(
      { VITE_KIOSK_URL: 'http://kiosk.test/', VITE_SHORT_URL_BASE: TEST_SHORT_URL_BASE, ...env },
      TEST_SUPABASE_URL,
    ),
    fetch: backend.fetch,
    reload,
    leave,
    persistSession: false,
    // One storage key per client: supabase-js warns about clients sharing one.
    storageKey: `sb-test-${++clients}`,
  });
  return { services, reload, leave };
}

function base64Url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** An unsigned access token with these claims (the backend does not check signatures). */
export function testAccessToken(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  return [
    base64Url({ alg: 'HS256', typ: 'JWT' }),
    base64Url({
      aud: 'authenticated',
      role: 'authenticated',
      aal: 'aal1',
      iat: now,
      exp: now + 3600,
      ...claims,
    }),
    // Not checked by anyone here, but shaped like one (base64url, whole 4-character groups).
    'c2lnbmF0dXJl',
  ].join('.');
}

/** The body GoTrue answers to a password grant, for `user`. */
export function sessionBody(
  user: { id: string; email: string },
  claims: Record<string, unknown> = {},
) {
  return {
    access_token: testAccessToken({ sub: user.id, email: user.email, ...claims }),
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    refresh_token: 'refresh-token',
    user: {
      id: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email: user.email,
      app_metadata: { provider: 'email' },
      user_metadata: {},
      created_at: '2024-11-18T00:00:00Z',
    },
  };
}

/**
 * Gives the services' Supabase client a session for `user` (as after a sign-in), so requests
 * carry a user's token; `claims` go into that token (e.g. an impersonator).
 */
export async function startSession(
  { services }: TestServices,
  backend: TestBackend,
  user: { id: string; email: string },
  claims: Record<string, unknown> = {},
): Promise<void> {
  const body = sessionBody(user, claims);
  backend.on('GET', '/auth/v1/user', () => json(body.user));
  const { error } = await services.supabase.auth.setSession({
    access_token: body.access_token,
    refresh_token: body.refresh_token,
  });
  if (error) throw error;
}
