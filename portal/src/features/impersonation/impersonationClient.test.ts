import { createClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSupabaseClient } from '../../lib/supabase.ts';
import { createImpersonationClient, sessionStorageKey } from './impersonationClient.ts';
import { impersonationToken } from './testTokens.ts';

const env = { supabaseUrl: 'http://127.0.0.1:59999', supabaseAnonKey: 'anon-key' };

describe('createImpersonationClient', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    window.localStorage.clear();
  });

  it('keeps the session under the given key and forgets it without calling Auth’s /logout', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      return Response.json({
        id: 'user-1',
        aud: 'authenticated',
        app_metadata: {},
        user_metadata: {},
      });
    });
    const client = createImpersonationClient(env, 'portal-session');
    const set = await client.auth.setSession({
      access_token: impersonationToken(),
      refresh_token: 'impersonation-cannot-refresh',
    });
    expect(set.error).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('portal-session')!).user.id).toBe('user-1');
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(window.localStorage.getItem('portal-session')).toBeNull();
    expect(calls).toEqual(['GET /auth/v1/user']);
  });
});

describe('sessionStorageKey', () => {
  it('finds the key the portal’s own client keeps its session under', () => {
    const chosen = createClient(env.supabaseUrl, env.supabaseAnonKey, {
      auth: { persistSession: false, storageKey: 'chosen-key' },
    });
    expect(sessionStorageKey(chosen)).toBe('chosen-key');
    // The portal leaves the key to supabase-js: sb-<first label of the API host>-auth-token.
    const portal = createSupabaseClient(env, { fetch, persistSession: false });
    expect(sessionStorageKey(portal)).toBe('sb-127-auth-token');
  });
});
