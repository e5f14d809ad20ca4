import { AuthApiError, createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createAuthService } from '../src/auth/index.ts';
import { loadAuthSettings } from '../src/auth/settings.ts';
import type { WebHandler } from '../src/http.ts';
import { Mailbox } from '../src/mail.ts';
import { readSupabaseConfig } from '../src/supabase-config.ts';
import { CLIENT_OPTIONS, decodeJwt, env, uniqueEmail } from './auth-helpers.ts';

/**
 * The sign-up switches of config.toml, each both ways, as `supabase start` hands them to GoTrue:
 * [auth] enable_signup (DISABLE_SIGNUP), [auth.email] enable_signup (EXTERNAL_EMAIL_ENABLED),
 * [auth.email] enable_confirmations (MAILER_AUTOCONFIRM), [auth] enable_anonymous_sign_ins
 * (EXTERNAL_ANONYMOUS_USERS_ENABLED). The project's config.toml with one value changed is read
 * by loadAuthSettings into a second auth service on the test stack's database, called in-process
 * by supabase-js (no port, no restart).
 */

const authAdminUrl = new URL(env.DB_URL);
authAdminUrl.username = 'supabase_auth_admin';
authAdminUrl.password = 'postgres';
const pool = new pg.Pool({ connectionString: authAdminUrl.toString(), max: 4 });

afterAll(() => pool.end());

type Table = Record<string, unknown>;

/** The project's config.toml with some [auth] and [auth.email] keys replaced. */
function projectConfigWith(auth: Table, email: Table = {}): Table {
  const toml = readSupabaseConfig();
  const projectAuth = toml.auth as Table;
  return {
    ...toml,
    auth: { ...projectAuth, ...auth, email: { ...(projectAuth.email as Table), ...email } },
  };
}

/** supabase-js's requests to <url>/auth/v1/… go to the handler, as the gateway would send them. */
function viaHandler(handler: WebHandler): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/^\/auth\/v1/, '');
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return handler(
      new Request(url, {
        method: request.method,
        headers: request.headers,
        body: hasBody ? await request.text() : undefined,
      }),
    );
  };
}

function authWith(auth: Table, email: Table = {}) {
  const config = loadConfig({ gatewayPort: Number(new URL(env.SUPABASE_URL).port) });
  const settings = loadAuthSettings(config, {}, projectConfigWith(auth, email));
  const mailbox = new Mailbox();
  const handler = createAuthService({ config, pool, mailer: mailbox, settings });
  const fetch = viaHandler(handler);
  const client = (key: string): SupabaseClient =>
    createClient(env.SUPABASE_URL, key, { ...CLIENT_OPTIONS, global: { fetch } });
  const publicSettings = async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/settings`);
    return (await response.json()) as {
      disable_signup: boolean;
      mailer_autoconfirm: boolean;
      external: { email: boolean; anonymous_users: boolean };
    };
  };
  return {
    anon: () => client(env.SUPABASE_ANON_KEY),
    admin: () => client(env.SUPABASE_SERVICE_ROLE_KEY),
    mailbox,
    publicSettings,
    fetch,
  };
}

describe('[auth.saml] enabled', () => {
  it('false: signInWithSSO, the whole /sso tree and the admin SSO API answer saml_provider_disabled', async () => {
    const auth = authWith({ saml: { enabled: false } });
    const disabled = {
      status: 404,
      code: 'saml_provider_disabled',
      message: 'SAML 2.0 is disabled',
    };
    const byDomain = await auth.anon().auth.signInWithSSO({ domain: 'acme.example.com' });
    expect(byDomain.error).toBeInstanceOf(AuthApiError);
    expect(byDomain.error).toMatchObject(disabled);
    const byProvider = await auth.anon().auth.signInWithSSO({
      providerId: '11111111-1111-4111-8111-111111111111',
    });
    expect(byProvider.error).toMatchObject(disabled);
    const metadata = await auth.fetch(`${env.SUPABASE_URL}/auth/v1/sso/saml/metadata`);
    expect(metadata.status).toBe(404);
    expect(await metadata.json()).toEqual({
      code: 404,
      error_code: 'saml_provider_disabled',
      msg: 'SAML 2.0 is disabled',
    });
    const admin = await auth.fetch(`${env.SUPABASE_URL}/auth/v1/admin/sso/providers`, {
      headers: { authorization: `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}` },
    });
    expect(admin.status).toBe(404);
    expect(((await auth.publicSettings()) as { saml_enabled?: boolean }).saml_enabled).toBe(false);
  });

  it('true (the project): settings say so and the service provider metadata is served', async () => {
    const auth = authWith({});
    expect(((await auth.publicSettings()) as { saml_enabled?: boolean }).saml_enabled).toBe(true);
    const metadata = await auth.fetch(`${env.SUPABASE_URL}/auth/v1/sso/saml/metadata`);
    expect(metadata.headers.get('content-type')).toBe('application/xml');
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${env.SUPABASE_URL}/auth/v1/sso/saml/metadata"`);
    expect(xml).toContain(`Location="${env.SUPABASE_URL}/auth/v1/sso/saml/acs"`);
  });
});

describe('[auth] enable_signup', () => {
  it('false: no sign-up of any kind (password, magic link, anonymous); the admin API still creates users', async () => {
    const auth = authWith({ enable_signup: false, enable_anonymous_sign_ins: true });
    const refused = {
      status: 422,
      code: 'signup_disabled',
      message: 'Signups not allowed for this instance',
    };
    const email = uniqueEmail('closed');
    const signUp = await auth.anon().auth.signUp({ email, password: 'closed-pass-1' });
    expect(signUp.error).toMatchObject(refused);
    const otp = await auth.anon().auth.signInWithOtp({ email });
    expect(otp.error).toMatchObject(refused);
    const anonymous = await auth.anon().auth.signInAnonymously();
    expect(anonymous.error).toMatchObject(refused);
    expect(auth.mailbox.list(email)).toEqual([]);

    const created = await auth.admin().auth.admin.createUser({
      email,
      password: 'closed-pass-1',
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const signIn = await auth.anon().auth.signInWithPassword({ email, password: 'closed-pass-1' });
    expect(signIn.error).toBeNull();
    expect((await auth.publicSettings()).disable_signup).toBe(true);
  });

  it('true: sign-up works', async () => {
    const auth = authWith({ enable_signup: true });
    const email = uniqueEmail('open');
    const { data, error } = await auth.anon().auth.signUp({ email, password: 'open-pass-1' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect((await auth.publicSettings()).disable_signup).toBe(false);
  });
});

describe('[auth.email] enable_signup', () => {
  it('false: the e-mail provider is off, for sign-ups and logins alike (the CLI maps it so)', async () => {
    const auth = authWith({}, { enable_signup: false });
    const email = uniqueEmail('no-email');
    expect((await auth.anon().auth.signUp({ email, password: 'no-email-1' })).error).toMatchObject({
      status: 400,
      code: 'email_provider_disabled',
      message: 'Email signups are disabled',
    });
    await auth
      .admin()
      .auth.admin.createUser({ email, password: 'no-email-1', email_confirm: true });
    const signIn = await auth.anon().auth.signInWithPassword({ email, password: 'no-email-1' });
    expect(signIn.error).toMatchObject({
      status: 422,
      code: 'email_provider_disabled',
      message: 'Email logins are disabled',
    });
    const recover = await auth.anon().auth.resetPasswordForEmail(email);
    expect(recover.error).toMatchObject({ status: 400, code: 'email_provider_disabled' });
    const otp = await auth.anon().auth.signInWithOtp({ email });
    expect(otp.error).toMatchObject({ status: 422, code: 'email_provider_disabled' });
    expect(auth.mailbox.list(email)).toEqual([]);
    expect((await auth.publicSettings()).external.email).toBe(false);
  });

  it('true: e-mail sign-up and login work', async () => {
    const auth = authWith({}, { enable_signup: true, enable_confirmations: false });
    const email = uniqueEmail('email-on');
    expect((await auth.anon().auth.signUp({ email, password: 'email-on-1' })).error).toBeNull();
    const signIn = await auth.anon().auth.signInWithPassword({ email, password: 'email-on-1' });
    expect(signIn.error).toBeNull();
    expect((await auth.publicSettings()).external.email).toBe(true);
  });
});

describe('[auth.email] enable_confirmations', () => {
  it('false: sign-up answers a session for a confirmed user, and sends no mail', async () => {
    const auth = authWith({}, { enable_confirmations: false });
    const email = uniqueEmail('autoconfirm');
    const { data, error } = await auth.anon().auth.signUp({ email, password: 'auto-pass-1' });
    expect(error).toBeNull();
    expect(data.session?.access_token).toEqual(expect.any(String));
    expect(data.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
    expect(auth.mailbox.list(email)).toEqual([]);
    expect((await auth.publicSettings()).mailer_autoconfirm).toBe(true);
  });

  it('true: sign-up answers no session, the user waits for the mailed confirmation', async () => {
    const auth = authWith({}, { enable_confirmations: true });
    const email = uniqueEmail('confirm');
    const { data, error } = await auth.anon().auth.signUp({ email, password: 'confirm-pass-1' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(auth.mailbox.list(email)).toHaveLength(1);
    const signIn = await auth.anon().auth.signInWithPassword({ email, password: 'confirm-pass-1' });
    expect(signIn.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
    expect((await auth.publicSettings()).mailer_autoconfirm).toBe(false);
  });
});

describe('[auth] enable_anonymous_sign_ins', () => {
  it('true: a sign-up without e-mail or phone makes an anonymous user with an anonymous amr', async () => {
    const auth = authWith({ enable_anonymous_sign_ins: true });
    const { data, error } = await auth
      .anon()
      .auth.signInAnonymously({ options: { data: { source: 'kiosk' } } });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      is_anonymous: true,
      email: '',
      user_metadata: { source: 'kiosk' },
    });
    expect(decodeJwt(data.session!.access_token)).toMatchObject({
      is_anonymous: true,
      role: 'authenticated',
      amr: [{ method: 'anonymous' }],
    });
    expect((await auth.publicSettings()).external.anonymous_users).toBe(true);
  });

  it('false: anonymous_provider_disabled, checked before enable_signup as GoTrue does', async () => {
    for (const enableSignup of [true, false]) {
      const auth = authWith({ enable_anonymous_sign_ins: false, enable_signup: enableSignup });
      const { data, error } = await auth.anon().auth.signInAnonymously();
      expect(data.session).toBeNull();
      expect(error).toMatchObject({
        status: 422,
        code: 'anonymous_provider_disabled',
        message: 'Anonymous sign-ins are disabled',
      });
      expect((await auth.publicSettings()).external.anonymous_users).toBe(false);
    }
  });
});
