import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it, vi } from 'vitest';
import { createSessionExpiry, PENDING_NOTICE_KEY, takePendingNotice } from './sessionExpiry.ts';

describe('session expiry', () => {
  it('reloads once when several requests fail together', async () => {
    const signOut = vi.fn(async () => ({ error: null }));
    const reload = vi.fn();
    const expire = createSessionExpiry({
      supabase: { auth: { signOut } } as unknown as SupabaseClient,
      localStorage: window.localStorage,
      sessionStorage: window.sessionStorage,
      reload,
    });
    await Promise.all([expire('Session expired.'), expire('Session expired.')]);
    expect(signOut).toHaveBeenCalledTimes(1);
    expect(signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('hands the notice to the reloaded page once', () => {
    window.sessionStorage.setItem(PENDING_NOTICE_KEY, 'Session expired.');
    expect(takePendingNotice(window.sessionStorage)).toBe('Session expired.');
    expect(takePendingNotice(window.sessionStorage)).toBeNull();
  });
});
