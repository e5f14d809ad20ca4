import { isAuthSessionMissingError } from '@supabase/supabase-js';
import { jwtVerify, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anonClient,
  closeDatabase,
  createConfirmedUser,
  database,
  decodeJwt,
  env,
  signedInClient,
  uniqueEmail,
} from './auth-helpers.ts';

afterAll(closeDatabase);

const secret = new TextEncoder().encode(env.SUPABASE_JWT_SECRET);

async function signIn(email: string, password: string) {
  const client = anonClient();
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { client, session: data.session };
}

async function refresh(refreshToken: string) {
  return anonClient().auth.refreshSession({ refresh_token: refreshToken });
}

/** GET /user with an arbitrary bearer token, as the raw HTTP answer. */
async function getUserWith(token: string | undefined) {
  const headers: Record<string, string> = {
    apikey: env.SUPABASE_ANON_KEY,
    'x-supabase-api-version': '2024-01-01',
  };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${env.SUPABASE_URL}/auth/v1/user`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('auth: access tokens', () => {
  it('issues HS256 tokens with the claims GoTrue puts in them', async () => {
    const { user, session } = await signedInClient('claims');
    const { payload, protectedHeader } = await jwtVerify(session.access_token, secret);
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({
      iss: `${env.SUPABASE_URL}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      email: user.email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { email_verified: true },
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      is_anonymous: false,
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(session.expires_in).toBeGreaterThan(3590);
    expect(session.token_type).toBe('bearer');

    const { rows } = await database().query(
      `select s.aal::text, r.revoked, r.parent, r.user_id
         from auth.sessions s join auth.refresh_tokens r on r.session_id = s.id where s.id = $1`,
      [payload.session_id],
    );
    expect(rows).toEqual([{ aal: 'aal1', revoked: false, parent: null, user_id: user.id }]);

    const { rows: audit } = await database().query(
      `select payload->>'action' as action, payload->>'log_type' as log_type
         from auth.audit_log_entries where payload->>'actor_id' = $1 order by created_at`,
      [user.id],
    );
    expect(audit).toContainEqual({ action: 'login', log_type: 'account' });
  });

  it('stores bcrypt hashes that pgcrypto checks, and accepts users seeded with crypt()', async () => {
    const user = await createConfirmedUser('pgcrypto', 'seeded-pass-1');
    const { rows } = await database().query(
      `select encrypted_password like '$2a$10$%' as go_style,
              encrypted_password = extensions.crypt('seeded-pass-1', encrypted_password) as matches
         from auth.users where id = $1`,
      [user.id],
    );
    expect(rows[0]).toEqual({ go_style: true, matches: true });

    const email = uniqueEmail('seeded');
    await database().query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
         email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated',
         'authenticated', $1, extensions.crypt('from-sql-1', extensions.gen_salt('bf')), now(),
         '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
      [email],
    );
    const { session } = await signIn(email, 'from-sql-1');
    expect(decodeJwt(session.access_token).email).toBe(email);
  });
});

describe('auth: refresh tokens', () => {
  it('rotates the refresh token and keeps the session', async () => {
    const { session } = await signedInClient('rotate');
    const { data, error } = await refresh(session.refresh_token);
    expect(error).toBeNull();
    expect(data.session?.refresh_token).toMatch(/^[a-z0-9]{12}$/);
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
    expect(decodeJwt(data.session!.access_token).session_id).toBe(
      decodeJwt(session.access_token).session_id,
    );
    const { rows } = await database().query(
      'select token, revoked, parent from auth.refresh_tokens where session_id = $1 order by id',
      [decodeJwt(session.access_token).session_id],
    );
    expect(rows).toEqual([
      { token: session.refresh_token, revoked: true, parent: null },
      { token: data.session!.refresh_token, revoked: false, parent: session.refresh_token },
    ]);
  });

  it('hands the current token back when the previous one is replayed within the reuse interval', async () => {
    const { session } = await signedInClient('reuse-ok');
    const first = await refresh(session.refresh_token);
    const replay = await refresh(session.refresh_token);
    expect(replay.error).toBeNull();
    expect(replay.data.session?.refresh_token).toBe(first.data.session?.refresh_token);
  });

  it('revokes the whole token family when a used token comes back after the reuse interval', async () => {
    const { session } = await signedInClient('reuse-attack');
    const sessionId = decodeJwt(session.access_token).session_id;
    const second = await refresh(session.refresh_token);
    const third = await refresh(second.data.session!.refresh_token);
    expect(third.error).toBeNull();
    // Age the chain instead of sleeping through refresh_token_reuse_interval (10 s).
    await database().query(
      `update auth.refresh_tokens set updated_at = updated_at - interval '1 minute'
        where session_id = $1`,
      [sessionId],
    );

    const { data, error } = await refresh(session.refresh_token);
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 400,
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });
    const { rows } = await database().query(
      'select bool_and(revoked) as all_revoked from auth.refresh_tokens where session_id = $1',
      [sessionId],
    );
    expect(rows[0].all_revoked).toBe(true);

    // The thief's latest token is dead too once its own grace period is over.
    await database().query(
      `update auth.refresh_tokens set updated_at = updated_at - interval '1 minute'
        where session_id = $1`,
      [sessionId],
    );
    const latest = await refresh(third.data.session!.refresh_token);
    expect(latest.error).toMatchObject({ code: 'refresh_token_already_used' });
  });

  it('refuses unknown and malformed refresh tokens', async () => {
    const unknown = await refresh('abcdefghijkl');
    expect(unknown.error).toMatchObject({
      status: 400,
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
    const malformed = await refresh('short');
    expect(malformed.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Refresh token is not valid',
    });
  });
});

describe('auth: logout scopes', () => {
  it('ends other sessions, this session, or all of them', async () => {
    const user = await createConfirmedUser('logout');
    const a = await signIn(user.email, user.password);
    const b = await signIn(user.email, user.password);
    const c = await signIn(user.email, user.password);

    expect((await b.client.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await refresh(a.session.refresh_token)).error).toMatchObject({
      code: 'refresh_token_not_found',
    });
    expect((await refresh(c.session.refresh_token)).error).toMatchObject({
      code: 'refresh_token_not_found',
    });
    expect((await getUserWith(b.session.access_token)).status).toBe(200);

    expect((await b.client.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(await getUserWith(b.session.access_token)).toEqual({
      status: 403,
      body: {
        code: 'session_not_found',
        message: 'Session from session_id claim in JWT does not exist',
      },
    });
    const { error: missing } = await anonClient().auth.getUser(b.session.access_token);
    expect(isAuthSessionMissingError(missing)).toBe(true);

    const d = await signIn(user.email, user.password);
    const e = await signIn(user.email, user.password);
    expect((await d.client.auth.signOut()).error).toBeNull();
    expect((await refresh(e.session.refresh_token)).error).toMatchObject({
      code: 'refresh_token_not_found',
    });
    const { rows } = await database().query(
      'select count(*)::int as sessions from auth.sessions where user_id = $1',
      [user.id],
    );
    expect(rows[0].sessions).toBe(0);
  });

  it('refuses an unknown scope', async () => {
    const { session } = await signedInClient('bad-scope');
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/logout?scope=everyone`, {
      method: 'POST',
      headers: {
        apikey: env.SUPABASE_ANON_KEY,
        authorization: `Bearer ${session.access_token}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'validation_failed',
      message: 'Unsupported logout scope "everyone"',
    });
  });
});

describe('auth: the current user', () => {
  it('reads and updates user_metadata', async () => {
    const { client, user } = await signedInClient('metadata');
    const { data: read } = await client.auth.getUser();
    expect(read.user?.id).toBe(user.id);

    const updated = await client.auth.updateUser({ data: { theme: 'dark', locale: 'fr' } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ theme: 'dark', locale: 'fr' });

    const removed = await client.auth.updateUser({ data: { theme: null } });
    expect(removed.data.user?.user_metadata).not.toHaveProperty('theme');
    expect(removed.data.user?.user_metadata).toMatchObject({ locale: 'fr' });
  });

  it('changes the password, ending the other sessions but not this one', async () => {
    const user = await createConfirmedUser('password-change');
    const other = await signIn(user.email, user.password);
    const { client } = await signIn(user.email, user.password);

    const same = await client.auth.updateUser({ password: user.password });
    expect(same.error).toMatchObject({
      status: 422,
      code: 'same_password',
      message: 'New password should be different from the old password.',
    });
    const weak = await client.auth.updateUser({ password: 'abc' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });

    const { error } = await client.auth.updateUser({ password: 'brand-new-pass-2' });
    expect(error).toBeNull();
    expect((await client.auth.getUser()).error).toBeNull();
    expect((await refresh(other.session.refresh_token)).error).toMatchObject({
      code: 'refresh_token_not_found',
    });
    await expect(signIn(user.email, user.password)).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    await signIn(user.email, 'brand-new-pass-2');
  });

  it('keeps app_metadata for admins', async () => {
    const { session } = await signedInClient('app-metadata');
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/user`, {
      method: 'PUT',
      headers: {
        apikey: env.SUPABASE_ANON_KEY,
        authorization: `Bearer ${session.access_token}`,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({ app_metadata: { plan: 'pro' } }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      code: 'not_admin',
      message: 'Updating app_metadata requires admin privileges',
    });
  });
});

describe('auth: bearer tokens that are not valid', () => {
  async function forged(
    claims: Record<string, unknown>,
    expiresIn: string | number = '1h',
    key = secret,
  ) {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(key);
  }

  it('answers a missing token with 401 no_authorization', async () => {
    expect(await getUserWith(undefined)).toEqual({
      status: 401,
      body: { code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' },
    });
  });

  it('refuses an expired token', async () => {
    const { user } = await signedInClient('expired');
    const token = await forged(
      { sub: user.id, role: 'authenticated', aud: 'authenticated' },
      Math.floor(Date.now() / 1000) - 60,
    );
    expect(await getUserWith(token)).toEqual({
      status: 403,
      body: {
        code: 'bad_jwt',
        message:
          'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
      },
    });
    const { error } = await anonClient().auth.getUser(token);
    expect(error).toMatchObject({ status: 403, code: 'bad_jwt' });
  });

  it('refuses a token signed with another secret', async () => {
    const { user } = await signedInClient('wrong-key');
    const token = await forged(
      { sub: user.id, role: 'authenticated', aud: 'authenticated' },
      '1h',
      new TextEncoder().encode('another-secret-with-at-least-32-characters!'),
    );
    expect(await getUserWith(token)).toEqual({
      status: 403,
      body: {
        code: 'bad_jwt',
        message:
          'invalid JWT: unable to parse or verify signature, token signature is invalid: signature is invalid',
      },
    });
  });

  it('refuses an unsigned (alg: none) token', async () => {
    const { session } = await signedInClient('alg-none');
    const claims = session.access_token.split('.')[1];
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(await getUserWith(`${header}.${claims}.`)).toEqual({
      status: 403,
      body: {
        code: 'bad_jwt',
        message:
          'invalid JWT: unable to parse or verify signature, token signature is invalid: signing method none is invalid',
      },
    });
  });

  it('refuses the anon key, which names no user', async () => {
    expect(await getUserWith(env.SUPABASE_ANON_KEY)).toEqual({
      status: 403,
      body: { code: 'bad_jwt', message: 'invalid claim: missing sub claim' },
    });
  });
});
