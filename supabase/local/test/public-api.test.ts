import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShortlaneApi } from '../../../shared/src/api/client.ts';
import { createDomain, givePlan, type TestDomain } from '../../tests/links/fixtures.ts';
import { useDatabase, type TestUser } from '../../tests/support/index.ts';
import { signToken } from '../src/jwt.ts';
import { anonClient, env, serviceClient, uniqueEmail } from './auth-helpers.ts';

/**
 * The public API as a customer meets it: a token minted through the portal's path (password
 * sign-in, then create_api_token over PostgREST, 423 without a fresh password), then the typed
 * client generated from the OpenAPI document alone (shared/src/api) driving the `api` function
 * through the gateway: create, list, analytics, delete, and the token revoked.
 */
const pool = useDatabase();
const PASSWORD = 'correct horse battery staple';
const FEATURES = ['use_api', 'use_custom_alias', 'use_tags', 'use_analytics'];

let db: pg.PoolClient;
let user: TestUser;
let email: string;
let domain: TestDomain;
const createdUsers: string[] = [];

beforeAll(async () => {
  db = await pool.connect();
  email = uniqueEmail('public-api');
  const { data, error } = await serviceClient().auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (error) throw error;
  createdUsers.push(data.user.id);
  const [row] = (
    await db.query<{ personal_account_id: string }>(
      'select personal_account_id from public.profiles where id = $1',
      [data.user.id],
    )
  ).rows;
  user = { id: data.user.id, email, personalAccountId: row!.personal_account_id };
  await givePlan(db, user.personalAccountId, {
    features: FEATURES,
    options: { analytics_enabled: true, analytics_period: 'P1Y' },
  });
  domain = await createDomain(db, {});
});

afterAll(async () => {
  await db.query('delete from public.aliases where domain_id = $1', [domain.id]);
  await db.query('delete from public.domains where id = $1', [domain.id]);
  for (const id of createdUsers) await serviceClient().auth.admin.deleteUser(id);
  db.release();
});

describe('the public API through its generated client', () => {
  it('mints a token only after a password sign-in (423 otherwise)', async () => {
    const stale = await signToken(env.SUPABASE_JWT_SECRET, {
      sub: user.id,
      role: 'authenticated',
      aud: 'authenticated',
      aal: 'aal1',
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const refused = await fetch(`${env.SUPABASE_URL}/rest/v1/rpc/create_api_token`, {
      method: 'POST',
      headers: {
        apikey: env.SUPABASE_ANON_KEY,
        authorization: `Bearer ${stale}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ p_name: 'CI', p_abilities: ['links:read'] }),
    });
    expect(refused.status).toBe(423);
    expect(await refused.json()).toMatchObject({ message: 'password_confirmation_required' });
  });

  it('creates, lists, reads analytics and deletes, then stops once revoked', async () => {
    const portal = anonClient();
    const signedIn = await portal.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    const minted = await portal.rpc('create_api_token', {
      p_name: 'Contract test',
      p_abilities: ['links:read', 'links:write', 'analytics:read'],
    });
    expect(minted.error).toBeNull();
    const { id: tokenId, token } = minted.data as { id: string; token: string };

    const api = createShortlaneApi({ baseUrl: `${env.SUPABASE_URL}/functions/v1/api`, token });
    const created = await api.POST('/v1/links', {
      body: { url: 'https://example.com/contract', domain: domain.domain, tags: ['api'] },
      params: { header: { 'Idempotency-Key': `contract-${user.id}` } },
    });
    expect(created.response.status).toBe(201);
    const link = created.data!;
    expect(link).toMatchObject({ url: 'https://example.com/contract', tags: ['api'] });
    expect(created.response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);

    const listed = await api.GET('/v1/links', { params: { query: { limit: 10 } } });
    expect(listed.data?.data.map((row) => row.id)).toEqual([link.id]);
    expect(listed.data?.next_cursor).toBeNull();

    const analytics = await api.GET('/v1/links/{id}/analytics', {
      params: { path: { id: link.id }, query: { period: 'last_7_day' } },
    });
    expect(analytics.response.status).toBe(200);
    expect(analytics.data).toMatchObject({ period: 'last_7_day', clicks: 0 });
    expect(Array.isArray(analytics.data?.series)).toBe(true);

    const refused = await api.GET('/v1/domains');
    expect(refused.response.status).toBe(403);
    expect(refused.error?.error.code).toBe('ability_missing');

    const deleted = await api.DELETE('/v1/links/{id}', { params: { path: { id: link.id } } });
    expect(deleted.response.status).toBe(204);
    const gone = await api.GET('/v1/links/{id}', { params: { path: { id: link.id } } });
    expect(gone.error?.error.code).toBe('alias_not_found');

    const revoked = await portal.rpc('revoke_api_token', { p_token_id: tokenId });
    expect(revoked.error).toBeNull();
    const after = await api.GET('/v1/links', { params: { query: {} } });
    expect(after.response.status).toBe(401);
    expect(after.error?.error.code).toBe('unauthenticated');
  });
});
