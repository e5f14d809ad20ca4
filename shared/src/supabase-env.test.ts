import { describe, expect, it } from 'vitest';
import { readSupabaseEnv } from './supabase-env.ts';

describe('readSupabaseEnv', () => {
  it('accepts a URL and a key, trimming whitespace and trailing slashes', () => {
    expect(
      readSupabaseEnv({
        VITE_SUPABASE_URL: ' http://127.0.0.1:54321/ ',
        VITE_SUPABASE_ANON_KEY: 'anon-key',
      }),
    ).toEqual({
      ok: true,
      env: { supabaseUrl: 'http://127.0.0.1:54321', supabaseAnonKey: 'anon-key' },
    });
  });

  it('names every missing variable', () => {
    expect(readSupabaseEnv({ VITE_SUPABASE_ANON_KEY: '   ' })).toEqual({
      ok: false,
      problems: ['VITE_SUPABASE_URL is not set.', 'VITE_SUPABASE_ANON_KEY is not set.'],
    });
  });

  it('refuses a URL that is not http(s)', () => {
    for (const url of ['127.0.0.1:54321', 'ftp://example.com', 'not a url']) {
      const check = readSupabaseEnv({ VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: 'k' });
      expect(check).toEqual({
        ok: false,
        problems: [`VITE_SUPABASE_URL must be an http(s) URL, got "${url}".`],
      });
    }
  });
});
