import { afterAll, describe, expect, it } from 'vitest';
import {
  closeDatabase,
  createConfirmedUser,
  database,
  decodeJwt,
  env,
  latestMailTo,
  mailParts,
  pkceClient,
  uniqueEmail,
} from './auth-helpers.ts';

const SITE_URL = 'http://localhost:5173';

afterAll(closeDatabase);

/** Opens an e-mail link and returns the auth code the redirect carries in its query. */
async function codeFromLink(link: string, expectedBase: string): Promise<string> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(expectedBase);
  return location.searchParams.get('code') ?? '';
}

/** POST /token?grant_type=pkce by hand, with any code verifier. */
function exchange(authCode: string, codeVerifier: string) {
  return fetch(`${env.SUPABASE_URL}/auth/v1/token?grant_type=pkce`, {
    method: 'POST',
    headers: {
      apikey: env.SUPABASE_ANON_KEY,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    body: JSON.stringify({ auth_code: authCode, code_verifier: codeVerifier }),
  });
}

describe('auth: the PKCE flow', () => {
  it('confirms a sign-up through ?code= and exchangeCodeForSession', async () => {
    const email = uniqueEmail('pkce-signup');
    const client = pkceClient();
    const { error } = await client.auth.signUp({
      email,
      password: 'pkce-pass-1',
      options: { emailRedirectTo: `${SITE_URL}/auth/callback` },
    });
    expect(error).toBeNull();
    const { link, tokenHash } = mailParts(await latestMailTo(email));
    expect(link).toContain('token=pkce_');
    expect(tokenHash).toMatch(/^pkce_[0-9a-f]{56}$/);
    const { rows } = await database().query(
      `select f.code_challenge_method::text, f.authentication_method, f.provider_type
         from auth.flow_state f join auth.users u on u.id = f.user_id where u.email = $1`,
      [email],
    );
    expect(rows).toEqual([
      {
        code_challenge_method: 's256',
        authentication_method: 'email/signup',
        provider_type: 'email',
      },
    ]);

    const code = await codeFromLink(link, `${SITE_URL}/auth/callback`);
    expect(code).toMatch(/^[0-9a-f-]{36}$/);
    const { data, error: exchangeError } = await client.auth.exchangeCodeForSession(code);
    expect(exchangeError).toBeNull();
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(decodeJwt(data.session!.access_token).amr).toEqual([
      { method: 'email/signup', timestamp: expect.any(Number) },
    ]);

    // A code is good for one exchange only.
    const again = await exchange(code, 'v'.repeat(43));
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      code: 'flow_state_not_found',
      message: 'invalid flow state, no valid flow state found',
    });
  });

  it('refuses a code verifier that does not match the challenge', async () => {
    const user = await createConfirmedUser('pkce-verifier');
    const requester = pkceClient();
    await requester.auth.resetPasswordForEmail(user.email, { redirectTo: `${SITE_URL}/reset` });
    const code = await codeFromLink(
      mailParts(await latestMailTo(user.email)).link,
      `${SITE_URL}/reset`,
    );

    const response = await exchange(code, 'x'.repeat(43));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'bad_code_verifier',
      message: 'code challenge does not match previously saved code verifier',
    });

    const { data, error } = await requester.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(decodeJwt(data.session!.access_token).amr).toEqual([
      { method: 'recovery', timestamp: expect.any(Number) },
    ]);
  });

  it('puts link errors in the query as well as the fragment', async () => {
    const response = await fetch(
      `${env.SUPABASE_URL}/auth/v1/verify?token=pkce_${'0'.repeat(56)}&type=signup&redirect_to=${SITE_URL}/cb`,
      { redirect: 'manual' },
    );
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('error_code')).toBe('otp_expired');
    expect(new URLSearchParams(location.hash.slice(1)).get('error_code')).toBe('otp_expired');
  });

  it('validates the code challenge', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/recover`, {
      method: 'POST',
      headers: {
        apikey: env.SUPABASE_ANON_KEY,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({
        email: uniqueEmail('pkce-bad'),
        code_challenge: 'short',
        code_challenge_method: 's256',
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'validation_failed',
      message: 'code challenge has to be between 43 and 128 characters',
    });
  });
});
