import { describe, expect, inject, it } from 'vitest';

const env = inject('stackEnv');

describe('gateway', () => {
  it('refuses REST calls without an apikey the way Kong does', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/rest/v1/`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'No API key found in request' });
  });

  it('refuses an unknown apikey', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/rest/v1/`, { headers: { apikey: 'nope' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Invalid authentication credentials' });
  });

  it('serves PostgREST OpenAPI through /rest/v1/ pointing at the gateway', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/rest/v1/`, {
      headers: { apikey: env.SUPABASE_ANON_KEY },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const doc = (await response.json()) as { swagger: string; host: string; basePath: string };
    expect(doc.swagger).toBe('2.0');
    expect(`${doc.host}${doc.basePath}`).toBe(`${new URL(env.SUPABASE_URL).host}/rest/v1`);
  });

  it('answers CORS preflight for browser apps', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/token`, { method: 'OPTIONS' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-headers')).toContain('apikey');
  });

  it('leaves a function its own CORS, preflight included, as Supabase does', async () => {
    // The public API allows Idempotency-Key and exposes its rate-limit headers to browsers.
    const preflight = await fetch(`${env.SUPABASE_URL}/functions/v1/api/v1/links`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
    const answer = await fetch(`${env.SUPABASE_URL}/functions/v1/api/v1/links`, {
      headers: { authorization: 'Bearer slt_unknown' },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Limit');
  });
});
