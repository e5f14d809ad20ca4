import { AuthApiError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { env, signedInClient } from './auth-helpers.ts';

/**
 * Features config.toml leaves off answer with GoTrue's JSON errors through the gateway, so
 * supabase-js turns them into an AuthApiError with GoTrue's code instead of failing to parse a
 * plain-text 404; unknown paths under /auth/v1 answer a JSON 404 too.
 */

async function authGet(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${env.SUPABASE_URL}/auth/v1${path}`, {
    headers: { apikey: env.SUPABASE_ANON_KEY, ...headers },
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: (await response.json()) as unknown,
  };
}

const LINKING_DISABLED = {
  status: 404,
  code: 'manual_linking_disabled',
  message: 'Manual linking is disabled',
};

describe('auth: manual identity linking is disabled', () => {
  it('linkIdentity and unlinkIdentity give an AuthApiError manual_linking_disabled', async () => {
    const { client } = await signedInClient('link');
    const link = await client.auth.linkIdentity({
      provider: 'github',
      options: { skipBrowserRedirect: true },
    });
    expect(link.error).toBeInstanceOf(AuthApiError);
    expect(link.error).toMatchObject(LINKING_DISABLED);

    const { data } = await client.auth.getUserIdentities();
    const emailIdentity = data!.identities[0]!;
    // supabase-js refuses to unlink the last identity itself; a second one is not possible here,
    // so the request is made as supabase-js makes it.
    const { data: session } = await client.auth.getSession();
    const unlink = await fetch(
      `${env.SUPABASE_URL}/auth/v1/user/identities/${emailIdentity.identity_id}`,
      {
        method: 'DELETE',
        headers: {
          apikey: env.SUPABASE_ANON_KEY,
          authorization: `Bearer ${session.session!.access_token}`,
        },
      },
    );
    expect(unlink.status).toBe(404);
    expect(await unlink.json()).toMatchObject({ error_code: 'manual_linking_disabled' });
  });

  it('asks for a session first, as GoTrue mounts it under /user', async () => {
    expect(await authGet('/user/identities/authorize?provider=github')).toMatchObject({
      status: 401,
      body: { error_code: 'no_authorization' },
    });
  });
});

describe('auth: OAuth providers and unknown paths', () => {
  it('/authorize names a provider that is off, or unknown, as GoTrue does', async () => {
    expect(await authGet('/authorize?provider=github')).toEqual({
      status: 400,
      contentType: 'application/json',
      body: {
        code: 400,
        error_code: 'validation_failed',
        msg: 'Unsupported provider: provider is not enabled',
      },
    });
    expect(await authGet('/authorize?provider=Nope')).toMatchObject({
      status: 400,
      body: { msg: 'Unsupported provider: Provider nope could not be found' },
    });
  });

  it('an unknown path answers a JSON 404, in either error format', async () => {
    expect(await authGet('/no/such/endpoint')).toEqual({
      status: 404,
      contentType: 'application/json',
      body: { code: 404, error_code: 'not_found', msg: '404 page not found' },
    });
    expect(await authGet('/factorsx', { 'x-supabase-api-version': '2024-01-01' })).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: '404 page not found' },
    });
  });
});
