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
  serviceClient,
  signedInClient,
  uniqueEmail,
} from './auth-helpers.ts';

const SITE_URL = 'http://localhost:5173';

afterAll(closeDatabase);

const admin = () => serviceClient().auth.admin;

async function adminFetch(
  path: string,
  init: RequestInit = {},
  token = env.SUPABASE_SERVICE_ROLE_KEY,
) {
  const response = await fetch(`${env.SUPABASE_URL}/auth/v1${path}`, {
    ...init,
    headers: {
      apikey: env.SUPABASE_ANON_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
      ...init.headers,
    },
  });
  return response;
}

describe('auth admin: who may use it', () => {
  it('refuses the anon key and user tokens with "User not allowed"', async () => {
    const { error } = await anonClient().auth.admin.listUsers();
    expect(error).toMatchObject({ status: 403, code: 'not_admin', message: 'User not allowed' });

    const { session } = await signedInClient('not-admin');
    const response = await adminFetch('/admin/users', {}, session.access_token);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 'not_admin', message: 'User not allowed' });
  });

  it('refuses a request without a bearer token', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/admin/users`, {
      headers: { apikey: env.SUPABASE_SERVICE_ROLE_KEY },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error_code: 'no_authorization' });
  });
});

describe('auth admin: users', () => {
  it('creates a confirmed user who can sign in at once', async () => {
    const email = uniqueEmail('admin-create');
    const { data, error } = await admin().createUser({
      email,
      password: 'created-pass-1',
      email_confirm: true,
      user_metadata: { full_name: 'Grace Hopper' },
      app_metadata: { plan: 'pro' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      role: 'authenticated',
      aud: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'], plan: 'pro' },
      user_metadata: { full_name: 'Grace Hopper', email_verified: true },
      identities: [expect.objectContaining({ provider: 'email' })],
    });
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    const signIn = await anonClient().auth.signInWithPassword({
      email,
      password: 'created-pass-1',
    });
    expect(signIn.error).toBeNull();
    expect(decodeJwt(signIn.data.session!.access_token).app_metadata).toMatchObject({
      plan: 'pro',
    });

    const again = await admin().createUser({ email, password: 'created-pass-1' });
    expect(again.error).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
  });

  it('lists users page by page with x-total-count and link headers', async () => {
    await createConfirmedUser('admin-list');
    await createConfirmedUser('admin-list');
    const response = await adminFetch('/admin/users?page=1&per_page=1');
    expect(response.status).toBe(200);
    const total = Number(response.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(2);
    expect(response.headers.get('link')).toBe(
      `</admin/users?page=2&per_page=1>; rel="next", </admin/users?page=${total}&per_page=1>; rel="last"`,
    );
    const body = (await response.json()) as { users: unknown[]; aud: string };
    expect(body.users).toHaveLength(1);
    expect(body.aud).toBe('authenticated');

    const { data, error } = await admin().listUsers({ page: 1, perPage: 2 });
    expect(error).toBeNull();
    expect(data.users).toHaveLength(2);
    expect(data).toMatchObject({ nextPage: 2 });
    expect((data as unknown as { total: number }).total).toBeGreaterThanOrEqual(total);
  });

  it('filters the list by e-mail', async () => {
    const user = await createConfirmedUser('admin-filter');
    const response = await adminFetch(
      `/admin/users?filter=${encodeURIComponent(user.email.split('@')[0]!)}`,
    );
    const body = (await response.json()) as { users: { id: string }[] };
    expect(body.users.map((u) => u.id)).toEqual([user.id]);
  });

  it('gets a user by id, with 404s for unknown and malformed ids', async () => {
    const user = await createConfirmedUser('admin-get');
    const { data } = await admin().getUserById(user.id);
    expect(data.user?.email).toBe(user.email);

    const unknown = await admin().getUserById('00000000-0000-4000-8000-000000000000');
    expect(unknown.error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User not found',
    });
    // supabase-js checks the id itself, so the server's own answer is asked for directly.
    const malformed = await adminFetch('/admin/users/nope');
    expect(malformed.status).toBe(404);
    expect(await malformed.json()).toEqual({
      code: 'validation_failed',
      message: 'user_id must be an UUID',
    });
  });

  it('updates metadata and the password', async () => {
    const user = await createConfirmedUser('admin-update');
    const { data, error } = await admin().updateUserById(user.id, {
      user_metadata: { nickname: 'ada' },
      app_metadata: { staff: true },
      password: 'set-by-admin-7',
    });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ nickname: 'ada', email_verified: true });
    expect(data.user?.app_metadata).toMatchObject({ provider: 'email', staff: true });
    const signIn = await anonClient().auth.signInWithPassword({
      email: user.email,
      password: 'set-by-admin-7',
    });
    expect(signIn.error).toBeNull();
  });

  it('bans a user, who then can neither sign in nor refresh, and lifts the ban', async () => {
    const { user, session } = await signedInClient('admin-ban');
    const { data, error } = await admin().updateUserById(user.id, { ban_duration: '24h' });
    expect(error).toBeNull();
    const bannedUntil = new Date(data.user!.banned_until!).getTime();
    expect(Math.abs(bannedUntil - Date.now() - 24 * 3600 * 1000)).toBeLessThan(60_000);

    const signIn = await anonClient().auth.signInWithPassword({
      email: user.email,
      password: user.password,
    });
    expect(signIn.error).toMatchObject({
      status: 400,
      code: 'user_banned',
      message: 'User is banned',
    });
    const refreshed = await anonClient().auth.refreshSession({
      refresh_token: session.refresh_token,
    });
    expect(refreshed.error).toMatchObject({
      status: 400,
      code: 'user_banned',
      message: 'Invalid Refresh Token: User Banned',
    });
    const current = await anonClient().auth.getUser(session.access_token);
    expect(current.error).toMatchObject({ status: 403, code: 'user_banned' });

    const lifted = await admin().updateUserById(user.id, { ban_duration: 'none' });
    expect(lifted.data.user?.banned_until).toBeUndefined();
    const again = await anonClient().auth.signInWithPassword({
      email: user.email,
      password: user.password,
    });
    expect(again.error).toBeNull();
  });

  it('refuses a ban duration Go cannot parse', async () => {
    const user = await createConfirmedUser('admin-ban-bad');
    const { error } = await admin().updateUserById(user.id, { ban_duration: '1 day' });
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'invalid format for ban duration: time: unknown unit " day" in duration "1 day"',
    });
  });

  it('deletes users, for good or softly', async () => {
    const hard = await createConfirmedUser('admin-delete');
    expect((await admin().deleteUser(hard.id)).error).toBeNull();
    expect((await admin().getUserById(hard.id)).error).toMatchObject({ status: 404 });

    const soft = await createConfirmedUser('admin-soft-delete');
    expect((await admin().deleteUser(soft.id, true)).error).toBeNull();
    const { data } = await admin().getUserById(soft.id);
    expect(data.user?.deleted_at).toEqual(expect.any(String));
    expect(data.user?.email).not.toBe(soft.email);
    const signIn = await anonClient().auth.signInWithPassword({
      email: soft.email,
      password: soft.password,
    });
    expect(signIn.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it("lists and deletes a user's factors", async () => {
    const { client, user } = await signedInClient('admin-factors');
    const { data: enrolled } = await client.auth.mfa.enroll({ factorType: 'totp' });
    const listed = await admin().mfa.listFactors({ userId: user.id });
    expect(listed.data?.factors).toEqual([
      expect.objectContaining({ id: enrolled!.id, factor_type: 'totp', status: 'unverified' }),
    ]);
    const deleted = await admin().mfa.deleteFactor({ userId: user.id, id: enrolled!.id });
    expect(deleted.error).toBeNull();
    expect((await admin().mfa.listFactors({ userId: user.id })).data?.factors).toEqual([]);
  });
});

describe('auth admin: invitations and generated links', () => {
  it('invites by e-mail; the link confirms the new user', async () => {
    const email = uniqueEmail('invite');
    const { data, error } = await admin().inviteUserByEmail(email, {
      data: { team: 'blue' },
      redirectTo: `${SITE_URL}/accept`,
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, user_metadata: { team: 'blue' } });
    expect(data.user?.invited_at).toEqual(expect.any(String));
    const mail = await latestMailTo(email);
    expect(mail.Subject).toBe("You've been invited");
    const { link } = mailParts(mail);
    expect(link).toContain('type=invite');
    const response = await fetch(link, { redirect: 'manual' });
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith(`${SITE_URL}/accept#`)).toBe(true);
    expect(new URLSearchParams(location.split('#')[1]).get('type')).toBe('invite');
    const { data: after } = await admin().getUserById(data.user!.id);
    expect(after.user?.email_confirmed_at).toEqual(expect.any(String));
  });

  it('generates a sign-up link without sending mail', async () => {
    const email = uniqueEmail('link-signup');
    const { data, error } = await admin().generateLink({
      type: 'signup',
      email,
      password: 'linked-pass-1',
      options: { redirectTo: `${SITE_URL}/hello` },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.properties).toEqual({
      action_link: `${env.SUPABASE_URL}/auth/v1/verify?token=${data.properties!.hashed_token}&type=signup&redirect_to=${SITE_URL}/hello`,
      email_otp: expect.stringMatching(/^\d{6}$/),
      hashed_token: expect.stringMatching(/^[0-9a-f]{56}$/),
      redirect_to: `${SITE_URL}/hello`,
      verification_type: 'signup',
    });
    await expect(mailsTo(email, 1, 300)).rejects.toThrow(/found 0/);

    const response = await fetch(data.properties!.action_link, { redirect: 'manual' });
    expect(response.headers.get('location')).toContain('access_token=');
    const signIn = await anonClient().auth.signInWithPassword({
      email,
      password: 'linked-pass-1',
    });
    expect(signIn.error).toBeNull();
  });

  it('generates magic links (a sign-up for new addresses) and recovery links', async () => {
    const user = await createConfirmedUser('link-magic');
    const magic = await admin().generateLink({ type: 'magiclink', email: user.email });
    expect(magic.data.properties?.verification_type).toBe('magiclink');
    const viaHash = await anonClient().auth.verifyOtp({
      token_hash: magic.data.properties!.hashed_token,
      type: 'magiclink',
    });
    expect(viaHash.data.user?.id).toBe(user.id);

    const newcomer = uniqueEmail('link-magic-new');
    const created = await admin().generateLink({ type: 'magiclink', email: newcomer });
    expect(created.data.properties?.verification_type).toBe('signup');
    expect(created.data.user?.email).toBe(newcomer);

    const recovery = await admin().generateLink({ type: 'recovery', email: user.email });
    const viaCode = await anonClient().auth.verifyOtp({
      email: user.email,
      token: recovery.data.properties!.email_otp,
      type: 'recovery',
    });
    expect(viaCode.error).toBeNull();

    const nobody = await admin().generateLink({ type: 'recovery', email: uniqueEmail('nobody') });
    expect(nobody.error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User with this email not found',
    });
  });

  it('generates both e-mail change links; the change applies once both are used', async () => {
    const user = await createConfirmedUser('link-change');
    const newEmail = uniqueEmail('link-changed');
    const current = await admin().generateLink({
      type: 'email_change_current',
      email: user.email,
      newEmail,
    });
    const next = await admin().generateLink({
      type: 'email_change_new',
      email: user.email,
      newEmail,
    });
    expect(next.data.user?.new_email).toBe(newEmail);

    const first = await anonClient().auth.verifyOtp({
      token_hash: current.data.properties!.hashed_token,
      type: 'email_change',
    });
    expect(first.error).toBeNull();
    expect(first.data.session).toBeNull();
    const second = await anonClient().auth.verifyOtp({
      token_hash: next.data.properties!.hashed_token,
      type: 'email_change',
    });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(newEmail);
    const { rows } = await database().query('select email from auth.users where id = $1', [
      user.id,
    ]);
    expect(rows[0].email).toBe(newEmail);
  });
});
