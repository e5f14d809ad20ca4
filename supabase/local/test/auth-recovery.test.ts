import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anonClient,
  closeDatabase,
  createConfirmedUser,
  database,
  decodeJwt,
  env,
  latestMailTo,
  mailParts,
  mailsTo,
  signedInClient,
  uniqueEmail,
} from './auth-helpers.ts';

const SITE_URL = 'http://localhost:5173';

afterAll(closeDatabase);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Follows an e-mail link as a browser would and returns where it was sent. */
async function follow(link: string): Promise<{ base: string; fragment: Record<string, string> }> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const location = response.headers.get('location') ?? '';
  const [base = '', fragment = ''] = location.split('#');
  return { base, fragment: Object.fromEntries(new URLSearchParams(fragment)) };
}

describe('auth: password recovery', () => {
  it('mails a recovery link that signs the user in to choose a new password', async () => {
    const user = await createConfirmedUser('recover');
    const { error } = await anonClient().auth.resetPasswordForEmail(user.email, {
      redirectTo: `${SITE_URL}/reset-password`,
    });
    expect(error).toBeNull();
    const mail = await latestMailTo(user.email);
    expect(mail.Subject).toBe('Reset your password');
    const { link } = mailParts(mail);
    expect(link).toContain('type=recovery');

    const landing = await follow(link);
    expect(landing.base).toBe(`${SITE_URL}/reset-password`);
    expect(landing.fragment).toMatchObject({ type: 'recovery', token_type: 'bearer' });

    const client = anonClient();
    const { error: sessionError } = await client.auth.setSession({
      access_token: landing.fragment.access_token!,
      refresh_token: landing.fragment.refresh_token!,
    });
    expect(sessionError).toBeNull();
    expect((await client.auth.updateUser({ password: 'recovered-pass-3' })).error).toBeNull();
    const signIn = await anonClient().auth.signInWithPassword({
      email: user.email,
      password: 'recovered-pass-3',
    });
    expect(signIn.error).toBeNull();
  });

  it('accepts the mailed code through verifyOtp', async () => {
    const user = await createConfirmedUser('recover-code');
    await anonClient().auth.resetPasswordForEmail(user.email);
    const { otp, link } = mailParts(await latestMailTo(user.email));
    expect(link).toContain(`redirect_to=${SITE_URL}`);
    const { data, error } = await anonClient().auth.verifyOtp({
      email: user.email,
      token: otp,
      type: 'recovery',
    });
    expect(error).toBeNull();
    expect(decodeJwt(data.session!.access_token).amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);
    // Used once, the code is gone.
    const again = await anonClient().auth.verifyOtp({
      email: user.email,
      token: otp,
      type: 'recovery',
    });
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('answers an unknown address like a known one, without sending mail', async () => {
    const email = uniqueEmail('nobody-recover');
    const { data, error } = await anonClient().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    await expect(mailsTo(email, 1, 300)).rejects.toThrow(/found 0/);
  });
});

describe('auth: e-mail change with double confirmation', () => {
  it('needs both addresses to confirm before the address changes', async () => {
    const { client, user } = await signedInClient('change-from');
    const newEmail = uniqueEmail('change-to');
    const { data, error } = await client.auth.updateUser(
      { email: newEmail },
      { emailRedirectTo: `${SITE_URL}/settings` },
    );
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email: user.email, new_email: newEmail });

    const toNew = await latestMailTo(newEmail);
    const toCurrent = await latestMailTo(user.email);
    for (const mail of [toNew, toCurrent]) {
      expect(mail.Subject).toBe('Confirm your new email address');
      expect(mail.Text).toContain(newEmail);
    }

    const first = await follow(mailParts(toCurrent).link);
    expect(first.base).toBe(`${SITE_URL}/settings`);
    expect(first.fragment).toEqual({
      message: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
      sb: '',
    });
    expect((await client.auth.getUser()).data.user?.email).toBe(user.email);

    const second = await follow(mailParts(toNew).link);
    expect(second.fragment).toMatchObject({ type: 'email_change', token_type: 'bearer' });
    const { data: after } = await client.auth.getUser();
    expect(after.user?.email).toBe(newEmail);
    expect(after.user?.new_email).toBeUndefined();
    expect(after.user?.identities?.[0]?.identity_data).toMatchObject({
      email: newEmail,
      email_verified: true,
    });
    const signIn = await anonClient().auth.signInWithPassword({
      email: newEmail,
      password: user.password,
    });
    expect(signIn.error).toBeNull();
  });

  it('confirms through verifyOtp with token hashes too', async () => {
    const { client, user } = await signedInClient('change-hash');
    const newEmail = uniqueEmail('change-hash-to');
    await client.auth.updateUser({ email: newEmail });
    const current = mailParts(await latestMailTo(user.email));
    const next = mailParts(await latestMailTo(newEmail));

    const first = await anonClient().auth.verifyOtp({
      token_hash: current.tokenHash,
      type: 'email_change',
    });
    expect(first.error).toBeNull();
    expect(first.data).toEqual({ user: null, session: null });

    const second = await anonClient().auth.verifyOtp({
      token_hash: next.tokenHash,
      type: 'email_change',
    });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(newEmail);
  });

  it('refuses an address another user has', async () => {
    const other = await createConfirmedUser('taken');
    const { client } = await signedInClient('wants-taken');
    const { error } = await client.auth.updateUser({ email: other.email });
    expect(error).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
  });

  it('resends the e-mail change mails', async () => {
    const { client, user } = await signedInClient('change-resend');
    const newEmail = uniqueEmail('change-resend-to');
    await client.auth.updateUser({ email: newEmail });
    await wait(1100);
    const { error } = await anonClient().auth.resend({ type: 'email_change', email: user.email });
    expect(error).toBeNull();
    const [latest, earlier] = await mailsTo(newEmail, 2);
    expect(mailParts(latest!).tokenHash).not.toBe(mailParts(earlier!).tokenHash);
    // Only the newest link still works.
    const stale = await anonClient().auth.verifyOtp({
      token_hash: mailParts(earlier!).tokenHash,
      type: 'email_change',
    });
    expect(stale.error).toMatchObject({ code: 'otp_expired' });
  });
});

describe('auth: resend and reauthenticate', () => {
  it('resends a sign-up confirmation, but not to a confirmed address', async () => {
    const email = uniqueEmail('resend');
    await anonClient().auth.signUp({ email, password: 'resend-pass-1' });
    await wait(1100);
    expect((await anonClient().auth.resend({ type: 'signup', email })).error).toBeNull();
    const [latest] = await mailsTo(email, 2);
    expect(latest!.Subject).toBe('Confirm your email address');

    const confirmed = await createConfirmedUser('resend-confirmed');
    expect(
      (await anonClient().auth.resend({ type: 'signup', email: confirmed.email })).error,
    ).toBeNull();
    await expect(mailsTo(confirmed.email, 1, 300)).rejects.toThrow(/found 0/);
  });

  it('mails a reauthentication code whose hash becomes the pending nonce', async () => {
    const { client, user } = await signedInClient('reauth');
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await latestMailTo(user.email);
    const code = mail.Subject.match(/^(\d{6}) is your verification code$/)?.[1] ?? '';
    expect(mail.Text).toContain(code);
    const { rows } = await database().query(
      'select reauthentication_token, reauthentication_sent_at from auth.users where id = $1',
      [user.id],
    );
    expect(rows[0].reauthentication_token).toBe(
      createHash('sha224')
        .update(user.email + code)
        .digest('hex'),
    );
    // Asking again within max_frequency is refused.
    expect((await client.auth.reauthenticate()).error).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
    });
  });
});

describe('auth: magic links and e-mail codes', () => {
  it('mails a sign-in link and code to a confirmed user', async () => {
    const user = await createConfirmedUser('magic');
    const { error } = await anonClient().auth.signInWithOtp({
      email: user.email,
      options: { shouldCreateUser: false, emailRedirectTo: `${SITE_URL}/links` },
    });
    expect(error).toBeNull();
    const mail = await latestMailTo(user.email);
    expect(mail.Subject).toBe('Your sign-in link');
    const { link, otp } = mailParts(mail);
    expect(link).toContain('type=magiclink');
    const { data, error: verifyError } = await anonClient().auth.verifyOtp({
      email: user.email,
      token: otp,
      type: 'email',
    });
    expect(verifyError).toBeNull();
    expect(data.user?.id).toBe(user.id);
  });

  it('refuses unknown addresses when sign-ups are not wanted, and signs new ones up otherwise', async () => {
    const email = uniqueEmail('otp-new');
    const refused = await anonClient().auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false },
    });
    expect(refused.error).toMatchObject({
      status: 422,
      code: 'otp_disabled',
      message: 'Signups not allowed for otp',
    });
    expect((await anonClient().auth.signInWithOtp({ email })).error).toBeNull();
    const mail = await latestMailTo(email);
    expect(mail.Subject).toBe('Confirm your email address');
    const { data } = await anonClient().auth.verifyOtp({
      email,
      token: mailParts(mail).otp,
      type: 'email',
    });
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    const { rows } = await database().query(
      'select count(*)::int as users from auth.users where email = $1',
      [email],
    );
    expect(rows[0].users).toBe(1);
  });
});

it('keeps the gateway open for e-mail links without an apikey', async () => {
  const response = await fetch(`${env.SUPABASE_URL}/auth/v1/verify?type=signup&token=nope`, {
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toContain('error_code=otp_expired');
});
