import { afterEach, describe, expect, it, vi } from 'vitest';
import { createImpersonationClient, kioskUrl } from './impersonationClient.ts';
import { impersonationToken } from './testTokens.ts';

const env = { VITE_SUPABASE_URL: 'http://127.0.0.1:59999', VITE_SUPABASE_ANON_KEY: 'anon-key' };

describe('createImpersonationClient', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    window.localStorage.clear();
  });

  it('forgets a session on sign-out without ever calling Auth’s /logout', async () => {
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
    const client = createImpersonationClient(env);
    const set = await client.auth.setSession({
      access_token: impersonationToken(),
      refresh_token: 'impersonation-cannot-refresh',
    });
    expect(set.error).toBeNull();
    expect((await client.auth.getSession()).data.session?.user.id).toBe('user-1');
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await client.auth.getSession()).data.session).toBeNull();
    expect(calls).toEqual(['GET /auth/v1/user']);
  });

  it('knows the kiosk only from a valid VITE_KIOSK_URL', () => {
    expect(kioskUrl({ VITE_KIOSK_URL: 'http://localhost:5174' })).toBe('http://localhost:5174');
    expect(kioskUrl({ VITE_KIOSK_URL: 'javascript:alert(1)' })).toBeNull();
    expect(kioskUrl({})).toBeNull();
  });
});
