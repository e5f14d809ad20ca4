import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createAuthService, type AuthSettings } from '../src/auth/index.ts';
import { Mailbox } from '../src/mail.ts';
import { closeDatabase, database, env, uniqueEmail } from './auth-helpers.ts';

/**
 * Behaviour that depends on config.toml settings the shared stack does not use: a second auth
 * service with other settings, on the same database, called in-process.
 */

const authAdminUrl = new URL(env.DB_URL);
authAdminUrl.username = 'supabase_auth_admin';
authAdminUrl.password = 'postgres';
const pool = new pg.Pool({ connectionString: authAdminUrl.toString(), max: 4 });

afterAll(async () => {
  await pool.end();
  await closeDatabase();
});

function service(settings: Partial<AuthSettings>) {
  const mailbox = new Mailbox();
  const config = loadConfig({ gatewayPort: Number(new URL(env.SUPABASE_URL).port) });
  const handler = createAuthService({ config, pool, mailer: mailbox, settings });
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    };
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await handler(
      new Request(`http://127.0.0.1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : {}) as Record<string, unknown> & {
        access_token: string;
        refresh_token: string;
      },
    };
  };
  return { call, mailbox };
}

describe('auth settings: enable_confirmations = false', () => {
  const { call } = service({ mailerAutoconfirm: true });

  it('signs a new user in at once and refuses a second sign-up', async () => {
    const email = uniqueEmail('autoconfirm');
    const first = await call('POST', '/signup', { email, password: 'auto-pass-1' });
    expect(first.status).toBe(200);
    expect(first.body.access_token).toEqual(expect.any(String));
    expect(first.body.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });

    const second = await call('POST', '/signup', { email, password: 'auto-pass-1' });
    expect(second).toEqual({
      status: 422,
      body: { code: 'user_already_exists', message: 'User already registered' },
    });
  });
});

describe('auth settings: secure_password_change = true', () => {
  const { call, mailbox } = service({
    mailerAutoconfirm: true,
    updatePasswordRequiresReauthentication: true,
  });

  it('asks for a mailed nonce once the session is a day old', async () => {
    const email = uniqueEmail('nonce');
    const { body: session } = await call('POST', '/signup', { email, password: 'nonce-pass-1' });
    const token = session.access_token;

    // A fresh session may change the password without a nonce, as in GoTrue.
    expect((await call('PUT', '/user', { password: 'nonce-pass-2' }, token)).status).toBe(200);

    await database().query(
      `update auth.sessions set created_at = created_at - interval '25 hours'
        where user_id = (select id from auth.users where email = $1)`,
      [email],
    );
    expect(await call('PUT', '/user', { password: 'nonce-pass-3' }, token)).toEqual({
      status: 400,
      body: {
        code: 'reauthentication_needed',
        message: 'Password update requires reauthentication',
      },
    });

    expect((await call('GET', '/reauthenticate', undefined, token)).status).toBe(200);
    const mail = mailbox.list(email)[0]!;
    const code = mail.subject.match(/^(\d{6}) is your verification code$/)![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await call('PUT', '/user', { password: 'nonce-pass-3', nonce: wrong }, token)).toEqual({
      status: 422,
      body: { code: 'reauthentication_not_valid', message: 'Nonce has expired or is invalid' },
    });
    expect(
      (await call('PUT', '/user', { password: 'nonce-pass-3', nonce: code }, token)).status,
    ).toBe(200);
    const { rows } = await database().query(
      'select reauthentication_token from auth.users where email = $1',
      [email],
    );
    expect(rows[0].reauthentication_token).toBe('');
  });
});

describe('auth settings: refresh_token_reuse_interval', () => {
  const { call } = service({ mailerAutoconfirm: true, refreshTokenReuseIntervalSeconds: 0 });

  it('treats any replay of an older token as reuse when the interval is 0', async () => {
    const email = uniqueEmail('interval');
    const { body: login } = await call('POST', '/signup', { email, password: 'interval-pass-1' });
    const second = await call('POST', '/token?grant_type=refresh_token', {
      refresh_token: login.refresh_token,
    });
    await call('POST', '/token?grant_type=refresh_token', {
      refresh_token: second.body.refresh_token,
    });
    const replay = await call('POST', '/token?grant_type=refresh_token', {
      refresh_token: login.refresh_token,
    });
    expect(replay).toEqual({
      status: 400,
      body: { code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' },
    });
  });
});

describe('auth settings: password rules', () => {
  it('applies minimum_password_length and password_requirements', async () => {
    const { call } = service({
      minPasswordLength: 10,
      passwordRequiredCharacters: ['abcdefghijklmnopqrstuvwxyz', '0123456789'],
    });
    expect(
      await call('POST', '/signup', { email: uniqueEmail('rules'), password: 'abcdef' }),
    ).toEqual({
      status: 422,
      body: {
        code: 'weak_password',
        message:
          'Password should be at least 10 characters. Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, 0123456789.',
        weak_password: { reasons: ['length', 'characters'] },
      },
    });
  });
});
