import { describe, expect, it } from 'vitest';
import { readKioskEnv } from './env.ts';

const supabase = { VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'anon' };

describe('readKioskEnv', () => {
  it('reads the Supabase settings and the portal origin, without a trailing slash', () => {
    expect(readKioskEnv({ ...supabase, VITE_PORTAL_URL: ' http://localhost:5173/ ' })).toEqual({
      ok: true,
      env: {
        supabaseUrl: 'http://127.0.0.1:54321',
        supabaseAnonKey: 'anon',
        portalUrl: 'http://localhost:5173',
      },
    });
  });

  it('names every problem at once', () => {
    expect(readKioskEnv({ VITE_PORTAL_URL: 'http://localhost:5173/app' })).toEqual({
      ok: false,
      problems: [
        'VITE_SUPABASE_URL is not set.',
        'VITE_SUPABASE_ANON_KEY is not set.',
        `VITE_PORTAL_URL must be the portal's http(s) origin, got "http://localhost:5173/app".`,
      ],
    });
    expect(readKioskEnv(supabase)).toEqual({
      ok: false,
      problems: ['VITE_PORTAL_URL is not set.'],
    });
  });
});
