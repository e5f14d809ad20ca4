import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { signToken } from '../local/src/jwt.ts';
import {
  anonClient,
  closeDatabase,
  database,
  decodeJwt,
  env,
  signedInClient,
} from '../local/test/auth-helpers.ts';
import { userWithVerifiedFactor } from '../local/test/mfa-helpers.ts';

/**
 * Impersonation cannot take an account over: a staff member's impersonation token, minted by the
 * real kiosk-impersonate function, is refused every credential change — password, e-mail, phone
 * and MFA factors by Auth, backup codes by the database, the account's deletion by
 * account-delete — while the user's own session may still make each of them.
 */

afterAll(closeDatabase);

let staffToken: string;

beforeAll(async () => {
  const staff = await signedInClient('impersonator');
  await database().query('update public.profiles set is_developer = true where id = $1', [
    staff.user.id,
  ]);
  staffToken = staff.session.access_token;
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  path: string,
  token: string,
  { method = 'POST', body }: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${env.SUPABASE_URL}${path}`, {
    method,
    headers: {
      apikey: env.SUPABASE_ANON_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

/** A staff member starts impersonating the user through the kiosk, as the back-office does. */
async function impersonate(userId: string): Promise<string> {
  const started = await call('/functions/v1/kiosk-impersonate', staffToken, {
    body: { action: 'start', user_id: userId },
  });
  expect(started.status).toBe(200);
  const token = started.body.access_token as string;
  expect(decodeJwt(token)).toMatchObject({ sub: userId, amr: [{ method: 'impersonation' }] });
  return token;
}

const refusedByAuth = (msg: string): Answer => ({
  status: 403,
  body: { code: 403, error_code: 'impersonation_not_allowed', msg },
});
const CREDENTIALS = 'An impersonation session cannot change the password, email or phone';
const FACTORS = 'An impersonation session cannot enroll, verify or unenroll MFA factors';

const authUser = async (userId: string) =>
  (
    await database().query<{ email: string; email_change: string; phone: string | null }>(
      'select email, email_change, phone from auth.users where id = $1',
      [userId],
    )
  ).rows[0]!;

describe('impersonation: password, e-mail, phone', () => {
  it('password: refused, the old password still signs in; the user may change it', async () => {
    const { client, user } = await signedInClient('imp-password');
    const token = await impersonate(user.id);
    expect(
      await call('/auth/v1/user', token, { method: 'PUT', body: { password: 'taken-over-1' } }),
    ).toEqual(refusedByAuth(CREDENTIALS));
    const signIn = await anonClient().auth.signInWithPassword({
      email: user.email,
      password: user.password,
    });
    expect(signIn.error).toBeNull();

    expect((await client.auth.updateUser({ password: 'my-own-choice-1' })).error).toBeNull();
    const withNew = await anonClient().auth.signInWithPassword({
      email: user.email,
      password: 'my-own-choice-1',
    });
    expect(withNew.error).toBeNull();
  });

  it('e-mail and phone: refused, nothing pending; other user data may still change', async () => {
    const { client, user } = await signedInClient('imp-email');
    const token = await impersonate(user.id);
    const newEmail = `taken-${user.email}`;
    expect(
      await call('/auth/v1/user', token, { method: 'PUT', body: { email: newEmail } }),
    ).toEqual(refusedByAuth(CREDENTIALS));
    expect(
      await call('/auth/v1/user', token, { method: 'PUT', body: { phone: '+15555550100' } }),
    ).toEqual(refusedByAuth(CREDENTIALS));
    expect(await authUser(user.id)).toEqual({ email: user.email, email_change: '', phone: null });

    // Not a credential: the impersonation may act on the user's data as the user would.
    const metadata = await call('/auth/v1/user', token, {
      method: 'PUT',
      body: { data: { locale: 'fr' } },
    });
    expect(metadata).toMatchObject({ status: 200, body: { user_metadata: { locale: 'fr' } } });

    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();
    expect((await authUser(user.id)).email_change).toBe(newEmail);
  });
});

describe('impersonation: MFA factors', () => {
  it('enrolling is refused with a 403, not a 500', async () => {
    const { client, user } = await signedInClient('imp-enroll');
    const token = await impersonate(user.id);
    expect(
      await call('/auth/v1/factors', token, { body: { factor_type: 'totp', friendly_name: 'x' } }),
    ).toEqual(refusedByAuth(FACTORS));
    const { rows } = await database().query('select 1 from auth.mfa_factors where user_id = $1', [
      user.id,
    ]);
    expect(rows).toEqual([]);

    const own = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Mine' });
    expect(own.error).toBeNull();
  });

  it('challenging, verifying and unenrolling the user’s factor are refused; the user may', async () => {
    const { client, user, factor, totp } = await userWithVerifiedFactor('imp-factor');
    const token = await impersonate(user.id);
    const base = `/auth/v1/factors/${factor.id}`;
    expect(await call(`${base}/challenge`, token)).toEqual(refusedByAuth(FACTORS));
    expect(
      await call(`${base}/verify`, token, {
        body: { challenge_id: crypto.randomUUID(), code: totp.generate() },
      }),
    ).toEqual(refusedByAuth(FACTORS));
    expect(await call(base, token, { method: 'DELETE' })).toEqual(refusedByAuth(FACTORS));
    const { rows } = await database().query<{ status: string }>(
      'select status from auth.mfa_factors where id = $1',
      [factor.id],
    );
    expect(rows).toEqual([{ status: 'verified' }]);

    expect((await client.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
  });

  it('a token without a session (the cause of the former 500) is answered 403', async () => {
    const { user } = await signedInClient('imp-sessionless');
    const sessionless = await signToken(env.SUPABASE_JWT_SECRET, {
      sub: user.id,
      role: 'authenticated',
      aud: 'authenticated',
      aal: 'aal1',
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    expect(
      await call('/auth/v1/factors', sessionless, { body: { factor_type: 'totp' } }),
    ).toMatchObject({ status: 403, body: { error_code: 'session_not_found' } });
  });
});

describe('impersonation: backup codes and account deletion', () => {
  it('backup codes: the database refuses them to the impersonation, not to the user', async () => {
    const { client, user } = await userWithVerifiedFactor('imp-codes');
    const generated = await client.rpc('generate_two_factor_backup_codes');
    expect(generated.error).toBeNull();
    const codes = generated.data as string[];
    const token = await impersonate(user.id);

    const spend = await call('/rest/v1/rpc/consume_two_factor_backup_code', token, {
      body: { p_code: codes[0] },
    });
    expect(spend).toMatchObject({
      status: 403,
      body: { code: 'PT403', message: 'impersonation_not_allowed' },
    });
    // Impersonation tokens are aal1: the aal2 rule refuses regeneration before this one.
    const regenerate = await call('/rest/v1/rpc/generate_two_factor_backup_codes', token, {
      body: {},
    });
    expect(regenerate).toMatchObject({ status: 403, body: { message: 'aal2_required' } });

    const remaining = await client.rpc('two_factor_backup_codes_remaining');
    expect(remaining.data).toBe(10);
    const own = await client.rpc('consume_two_factor_backup_code', { p_code: codes[0] });
    expect(own.data).toMatchObject({ consumed: true });
  });

  it('account deletion: refused even with the right password; the user may delete it', async () => {
    const { client, user } = await signedInClient('imp-delete');
    const token = await impersonate(user.id);
    expect(
      await call('/functions/v1/account-delete', token, { body: { password: user.password } }),
    ).toEqual({
      status: 403,
      body: {
        code: 'impersonation_not_allowed',
        message: 'An impersonation session cannot delete the account.',
      },
    });
    const exists = async () =>
      (await database().query('select 1 from auth.users where id = $1', [user.id])).rowCount;
    expect(await exists()).toBe(1);

    const own = await client.functions.invoke('account-delete', {
      body: { password: user.password },
    });
    expect(own.error).toBeNull();
    expect(await exists()).toBe(0);
  });
});
