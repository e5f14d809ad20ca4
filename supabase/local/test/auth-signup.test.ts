import { isAuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anonClient,
  closeDatabase,
  database,
  decodeJwt,
  env,
  latestMailTo,
  mailParts,
  mailsTo,
  uniqueEmail,
} from './auth-helpers.ts';

const PASSWORD = 'sign-up-pass-1';
const SITE_URL = 'http://localhost:5173';

afterAll(closeDatabase);

async function signUp(email: string, options: { emailRedirectTo?: string } = {}) {
  const result = await anonClient().auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { full_name: 'Ada Lovelace' }, ...options },
  });
  if (result.error) throw result.error;
  return result.data;
}

function fragmentOf(location: string): URLSearchParams {
  return new URLSearchParams(location.split('#')[1] ?? '');
}

describe('auth: health and settings', () => {
  it('answers /health like GoTrue', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/health`, {
      headers: { apikey: env.SUPABASE_ANON_KEY },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    });
  });

  it('reports the settings config.toml asks for', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/settings`, {
      headers: { apikey: env.SUPABASE_ANON_KEY },
    });
    const settings = (await response.json()) as Record<string, unknown>;
    expect(settings).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      external: { email: true, phone: false, anonymous_users: false, google: false },
    });
  });

  it('answers unknown paths with 404 as GoTrue does', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/no-such-thing`, {
      headers: { apikey: env.SUPABASE_ANON_KEY },
    });
    expect(response.status).toBe(404);
  });
});

describe('auth: sign-up with e-mail confirmation', () => {
  it('refuses a short password with weak_password and its reasons', async () => {
    const { data, error } = await anonClient().auth.signUp({
      email: uniqueEmail('weak'),
      password: '12345',
    });
    expect(data.user).toBeNull();
    expect(isAuthWeakPasswordError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 422,
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      reasons: ['length'],
    });
  });

  it('answers the legacy error shape to clients without an API version', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: env.SUPABASE_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('legacy'), password: '123' }),
    });
    expect(response.status).toBe(422);
    expect(response.headers.get('x-sb-error-code')).toBe('weak_password');
    expect(await response.json()).toEqual({
      code: 422,
      error_code: 'weak_password',
      msg: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
  });

  it('refuses a malformed address and a malformed body', async () => {
    const { error } = await anonClient().auth.signUp({ email: 'not-an-email', password: PASSWORD });
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to validate email address: invalid format',
    });
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: env.SUPABASE_ANON_KEY, 'x-supabase-api-version': '2024-01-01' },
      body: '{"email": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'bad_json' });
  });

  it('creates an unconfirmed user without a session and mails a confirmation', async () => {
    const email = uniqueEmail('signup');
    const data = await signUp(email);
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      // GoTrue makes the new identity's data the user's metadata.
      user_metadata: {
        full_name: 'Ada Lovelace',
        email,
        email_verified: false,
        phone_verified: false,
        sub: data.user?.id,
      },
      identities: [
        {
          provider: 'email',
          identity_data: { email, email_verified: false, full_name: 'Ada Lovelace' },
        },
      ],
    });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.confirmation_sent_at).toEqual(expect.any(String));

    const mail = await latestMailTo(email);
    expect(mail.Subject).toBe('Confirm your email address');
    const { link, otp, tokenHash } = mailParts(mail);
    expect(otp).toMatch(/^\d{6}$/);
    expect(tokenHash).toMatch(/^[0-9a-f]{56}$/);
    expect(link).toBe(
      `${env.SUPABASE_URL}/auth/v1/verify?token=${tokenHash}&type=signup&redirect_to=${SITE_URL}`,
    );
    expect(mail.HTML).toContain(link.replace(/&/g, '&amp;'));

    const { rows } = await database().query(
      `select u.confirmation_token, t.token_type::text
         from auth.users u join auth.one_time_tokens t on t.user_id = u.id where u.email = $1`,
      [email],
    );
    expect(rows).toEqual([{ confirmation_token: tokenHash, token_type: 'confirmation_token' }]);
  });

  it('refuses to sign an unconfirmed user in', async () => {
    const email = uniqueEmail('unconfirmed');
    await signUp(email);
    const { data, error } = await anonClient().auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });
  });

  it('confirms through the mailed link, redirecting with the session in the fragment', async () => {
    const email = uniqueEmail('link');
    await signUp(email, { emailRedirectTo: `${SITE_URL}/welcome` });
    const { link } = mailParts(await latestMailTo(email));
    expect(link).toContain(`redirect_to=${SITE_URL}/welcome`);

    // Links are opened by a browser: no apikey.
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith(`${SITE_URL}/welcome#`)).toBe(true);
    const fragment = fragmentOf(location);
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('refresh_token')).toMatch(/^[a-z0-9]{12}$/);
    expect(Number(fragment.get('expires_in'))).toBeGreaterThan(3500);
    expect(decodeJwt(fragment.get('access_token')!)).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'otp', timestamp: expect.any(Number) }],
    });

    const client = anonClient();
    const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(data.user?.user_metadata).toMatchObject({ email_verified: true });
    expect(data.user?.identities?.[0]?.identity_data).toMatchObject({ email_verified: true });

    // The link is single-use: a second visit lands on the error fragment.
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(303);
    const error2 = fragmentOf(again.headers.get('location') ?? '');
    expect(Object.fromEntries(error2)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
      sb: '',
    });
  });

  it('sends a redirect it does not allow to the site URL instead', async () => {
    const email = uniqueEmail('evil-redirect');
    await signUp(email, { emailRedirectTo: 'https://evil.example.net/steal' });
    const { link } = mailParts(await latestMailTo(email));
    expect(link).toContain(`redirect_to=${SITE_URL}`);
    expect(link).not.toContain('evil');
  });

  it('confirms through verifyOtp with the token hash, returning a session', async () => {
    const email = uniqueEmail('hash');
    await signUp(email);
    const { tokenHash } = mailParts(await latestMailTo(email));
    const client = anonClient();
    const { data, error } = await client.auth.verifyOtp({ token_hash: tokenHash, type: 'signup' });
    expect(error).toBeNull();
    expect(data.session?.access_token).toEqual(expect.any(String));
    expect(data.user?.email).toBe(email);
    const { data: current } = await client.auth.getUser();
    expect(current.user?.email_confirmed_at).toEqual(expect.any(String));
  });

  it('confirms through verifyOtp with the address and the six-digit code', async () => {
    const email = uniqueEmail('code');
    await signUp(email);
    const { otp } = mailParts(await latestMailTo(email));
    const wrong = await anonClient().auth.verifyOtp({
      email,
      token: otp === '000000' ? '111111' : '000000',
      type: 'email',
    });
    expect(wrong.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
    const { data, error } = await anonClient().auth.verifyOtp({ email, token: otp, type: 'email' });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
  });

  it('answers an unknown token hash with otp_expired', async () => {
    const { error } = await anonClient().auth.verifyOtp({
      token_hash: 'f'.repeat(56),
      type: 'signup',
    });
    expect(error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Email link is invalid or has expired',
    });
  });

  it('treats a repeated sign-up as GoTrue does with confirmations on', async () => {
    const email = uniqueEmail('repeat');
    const first = await signUp(email);
    // Unconfirmed: the confirmation is sent again (once max_frequency has passed).
    const tooSoon = await anonClient().auth.signUp({ email, password: PASSWORD });
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await signUp(email);
    expect(second.user?.id).toBe(first.user?.id);
    await mailsTo(email, 2);

    // Confirmed: a look-alike user that reveals nothing, and no mail.
    const { tokenHash } = mailParts(await latestMailTo(email, 2));
    await anonClient().auth.verifyOtp({ token_hash: tokenHash, type: 'signup' });
    const third = await signUp(email);
    expect(third.session).toBeNull();
    expect(third.user?.email).toBe(email);
    expect(third.user?.id).not.toBe(first.user?.id);
    expect(third.user?.identities).toEqual([]);
    expect(await mailsTo(email, 2)).toHaveLength(2);
  });

  it('refuses a wrong password with invalid_credentials', async () => {
    const { error } = await anonClient().auth.signInWithPassword({
      email: uniqueEmail('nobody'),
      password: 'whatever-1',
    });
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });
});
