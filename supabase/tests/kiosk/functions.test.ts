import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../../local/test/auth-helpers.ts';
import { all, one, useDatabase } from '../support/index.ts';
import { callFunction, env, rest, SEEDED, tokenFor } from './api.ts';

/**
 * The kiosk's edge functions over HTTP (gateway → functions runtime → Deno): every one refuses
 * whoever is not staff (no token, the anon key, a signed-in user, an impersonation token), and
 * does its job for staff, recorded in the kiosk audit log.
 */
const pool = useDatabase();
const admin = serviceClient();

const KIOSK_FUNCTIONS: [string, Record<string, unknown>][] = [
  ['kiosk-users', { action: 'ban', user_id: SEEDED.free }],
  ['kiosk-impersonate', { action: 'start', user_id: SEEDED.free }],
  ['kiosk-dns', { action: 'sync' }],
  ['kiosk-billing', { action: 'refund_order', order_id: '00000000-0000-4000-8000-000000000801' }],
];

const PERMISSION_DENIED = { code: 'permission_denied', message: 'Permission denied' };

interface TestUser {
  id: string;
  email: string;
  password: string;
}

const createdUsers: string[] = [];

async function createUser(label: string): Promise<TestUser> {
  const email = `kiosk-${label}-${randomUUID().slice(0, 8)}@kiosk-test.example.com`;
  const password = `Pw-${randomUUID()}`;
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw new Error(`createUser: ${error?.message}`);
  createdUsers.push(data.user.id);
  return { id: data.user.id, email, password };
}

async function createStaff(): Promise<TestUser> {
  const user = await createUser('staff');
  await pool.query('update public.profiles set is_developer = true where id = $1', [user.id]);
  return user;
}

let staff: TestUser;
let staffToken: string;

beforeAll(async () => {
  staff = await createStaff();
  staffToken = await tokenFor(staff.id);
});

afterAll(async () => {
  for (const id of createdUsers) await admin.auth.admin.deleteUser(id);
});

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

describe.each(KIOSK_FUNCTIONS)('%s refuses everyone but staff', (name, body) => {
  it('without a token (the runtime, before the function)', async () => {
    expect((await callFunction(name, body, null)).status).toBe(401);
  });

  it('with the anon key', async () => {
    expect(await callFunction(name, body, env.SUPABASE_ANON_KEY)).toEqual({
      status: 403,
      body: PERMISSION_DENIED,
    });
  });

  it('with a signed-in user who is not staff', async () => {
    expect(await callFunction(name, body, await tokenFor(SEEDED.owner))).toEqual({
      status: 403,
      body: PERMISSION_DENIED,
    });
  });

  it('with an impersonation token, even one of a user who became staff since', async () => {
    const token = await tokenFor(SEEDED.staff, { impersonator: staff.id, impersonation_id: 1 });
    expect(await callFunction(name, body, token)).toEqual({
      status: 403,
      body: PERMISSION_DENIED,
    });
  });
});

describe('kiosk-users', () => {
  it('bans a user (sign-in refused), then unbans them, each audited', async () => {
    const target = await createUser('ban');
    const banned = await callFunction(
      'kiosk-users',
      { action: 'ban', user_id: target.id },
      staffToken,
    );
    expect(banned.status).toBe(200);
    expect(banned.body).toMatchObject({ user_id: target.id, banned_until: expect.any(String) });
    const refused = await anonClient().auth.signInWithPassword(target);
    expect(refused.error?.code).toBe('user_banned');

    const lifted = await callFunction(
      'kiosk-users',
      { action: 'unban', user_id: target.id },
      staffToken,
    );
    expect(lifted).toEqual({ status: 200, body: { user_id: target.id, banned_until: null } });
    expect((await anonClient().auth.signInWithPassword(target)).error).toBeNull();

    const audit = await all<{ action: string; actor_id: string }>(
      pool,
      `select action, actor_id from public.kiosk_audit_log where subject_user_id = $1 order by id`,
      [target.id],
    );
    expect(audit).toEqual([
      { action: 'user.banned', actor_id: staff.id },
      { action: 'user.unbanned', actor_id: staff.id },
    ]);
  });

  it('resets two-factor authentication by deleting every factor', async () => {
    const target = await createUser('mfa');
    await pool.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret,
         created_at, updated_at)
       values (gen_random_uuid(), $1, 'phone app', 'totp', 'verified', 'JBSWY3DPEHPK3PXP', now(), now()),
              (gen_random_uuid(), $1, 'old app', 'totp', 'unverified', 'JBSWY3DPEHPK3PXQ', now(), now())`,
      [target.id],
    );
    const answer = await callFunction(
      'kiosk-users',
      { action: 'reset_mfa', user_id: target.id },
      staffToken,
    );
    expect(answer).toEqual({ status: 200, body: { user_id: target.id, deleted_factors: 2 } });
    const left = await all(pool, 'select id from auth.mfa_factors where user_id = $1', [target.id]);
    expect(left).toEqual([]);
    const audit = await one<{ details: unknown }>(
      pool,
      `select details from public.kiosk_audit_log where subject_user_id = $1 and action = 'user.mfa_reset'`,
      [target.id],
    );
    expect(audit.details).toEqual({ factors: ['totp', 'totp'] });
  });

  it('answers unknown users, bad input and self-bans clearly', async () => {
    expect(
      await callFunction('kiosk-users', { action: 'ban', user_id: randomUUID() }, staffToken),
    ).toEqual({ status: 404, body: { code: 'user_not_found', message: 'User not found' } });
    expect(
      await callFunction('kiosk-users', { action: 'delete', user_id: SEEDED.free }, staffToken),
    ).toMatchObject({
      status: 422,
      body: { errors: { action: ['The action must be one of: ban, unban, reset_mfa.'] } },
    });
    expect(
      await callFunction('kiosk-users', { action: 'ban', user_id: 'me' }, staffToken),
    ).toMatchObject({
      status: 422,
      body: { errors: { user_id: ['The user_id must be a user id (UUID).'] } },
    });
    expect(
      await callFunction('kiosk-users', { action: 'ban', user_id: staff.id }, staffToken),
    ).toMatchObject({ status: 422, body: { code: 'cannot_target_self' } });
  });
});

describe('kiosk-impersonate', () => {
  it('gives staff a token acting as the user, naming them as impersonator, audited', async () => {
    const target = await createUser('target');
    const started = await callFunction(
      'kiosk-impersonate',
      { action: 'start', user_id: target.id },
      staffToken,
    );
    expect(started.status).toBe(200);
    const session = started.body as {
      access_token: string;
      token_type: string;
      expires_in: number;
      expires_at: number;
      impersonation_id: number;
      user: { id: string; email: string };
    };
    expect(session).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      user: { id: target.id, email: target.email },
    });
    const claims = claimsOf(session.access_token);
    expect(claims).toMatchObject({
      sub: target.id,
      role: 'authenticated',
      aal: 'aal1',
      email: target.email,
      iss: `${env.SUPABASE_URL}/auth/v1`,
      exp: session.expires_at,
      app_metadata: { provider: 'email' },
      impersonator: staff.id,
      impersonation_id: session.impersonation_id,
    });
    expect(claims).not.toHaveProperty('session_id');

    // The token is the user's: Auth and the database both take it for them.
    const user = await fetch(`${env.SUPABASE_URL}/auth/v1/user`, {
      headers: { apikey: env.SUPABASE_ANON_KEY, authorization: `Bearer ${session.access_token}` },
    });
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ id: target.id, email: target.email });
    const profile = await rest('profiles?select=id,email', { token: session.access_token });
    expect(profile).toEqual({ status: 200, body: [{ id: target.id, email: target.email }] });

    const audit = await one<{ action: string; actor_id: string; subject_user_id: string }>(
      pool,
      `select action, actor_id, subject_user_id from public.kiosk_audit_log where id = $1`,
      [session.impersonation_id],
    );
    expect(audit).toEqual({
      action: 'impersonation.started',
      actor_id: staff.id,
      subject_user_id: target.id,
    });

    // Stopping is done with the impersonation token itself, and recorded once.
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(
        await callFunction('kiosk-impersonate', { action: 'stop' }, session.access_token),
      ).toEqual({
        status: 200,
        body: { impersonation_id: session.impersonation_id, impersonator_id: staff.id },
      });
    }
    const stops = await all(
      pool,
      `select actor_id, subject_user_id from public.kiosk_audit_log
       where action = 'impersonation.stopped' and details ->> 'impersonation_id' = $1`,
      [String(session.impersonation_id)],
    );
    expect(stops).toEqual([{ actor_id: staff.id, subject_user_id: target.id }]);
  });

  it('refuses to impersonate staff, banned users, unknown users and oneself', async () => {
    const otherStaff = await createStaff();
    expect(
      await callFunction(
        'kiosk-impersonate',
        { action: 'start', user_id: otherStaff.id },
        staffToken,
      ),
    ).toEqual({
      status: 403,
      body: { code: 'cannot_impersonate_staff', message: 'Staff members cannot be impersonated' },
    });
    const banned = await createUser('banned');
    await admin.auth.admin.updateUserById(banned.id, { ban_duration: '24h' });
    expect(
      await callFunction('kiosk-impersonate', { action: 'start', user_id: banned.id }, staffToken),
    ).toMatchObject({ status: 422, body: { code: 'user_banned' } });
    expect(
      await callFunction(
        'kiosk-impersonate',
        { action: 'start', user_id: randomUUID() },
        staffToken,
      ),
    ).toMatchObject({ status: 404, body: { code: 'user_not_found' } });
    expect(
      await callFunction('kiosk-impersonate', { action: 'start', user_id: staff.id }, staffToken),
    ).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
  });

  it('answers a stop from a session that is not an impersonation', async () => {
    expect(
      await callFunction('kiosk-impersonate', { action: 'stop' }, await tokenFor(SEEDED.free)),
    ).toEqual({
      status: 422,
      body: { code: 'not_impersonating', message: 'This session is not an impersonation' },
    });
  });
});

describe('kiosk-dns (sandbox provider)', () => {
  const sandboxZones = async () => {
    const response = await fetch(`${env.SUPABASE_URL}/sandbox/dns/zones`, {
      headers: { apikey: env.SUPABASE_SERVICE_ROLE_KEY },
    });
    return ((await response.json()) as { zones: string[] }).zones;
  };

  it('creates a zone, syncs it to active, refuses a duplicate, and deletes it, audited', async () => {
    const name = `zone-${randomUUID().slice(0, 8)}.example.org`;
    const created = await callFunction('kiosk-dns', { action: 'create', name }, staffToken);
    expect(created.status).toBe(201);
    const zone = created.body as { id: string; zone_id: string; status: string };
    expect(zone).toMatchObject({
      name,
      status: 'pending',
      zone_id: expect.stringMatching(/^sandbox_[0-9a-f]{32}$/),
      nameservers: ['ada.ns.sandbox.localhost', 'bob.ns.sandbox.localhost'],
    });
    // The stack's DNS sandbox now holds the zone: its name server answers for it.
    expect(await sandboxZones()).toContain(name);
    const listed = await rest(`dns_zones?select=name,status&id=eq.${zone.id}`, {
      token: staffToken,
    });
    expect(listed).toEqual({ status: 200, body: [{ name, status: 'pending' }] });

    const synced = await callFunction('kiosk-dns', { action: 'sync' }, staffToken);
    expect(synced.status).toBe(200);
    expect(synced.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: zone.id, status: 'active' })]),
    );

    expect(
      await callFunction('kiosk-dns', { action: 'create', name: name.toUpperCase() }, staffToken),
    ).toMatchObject({ status: 409, body: { code: 'zone_exists' } });
    expect(
      await callFunction('kiosk-dns', { action: 'create', name: 'not a domain' }, staffToken),
    ).toMatchObject({
      status: 422,
      body: { errors: { name: ['The name must be a domain name such as example.com.'] } },
    });

    expect(await callFunction('kiosk-dns', { action: 'delete', id: zone.id }, staffToken)).toEqual({
      status: 200,
      body: { id: zone.id },
    });
    expect(await sandboxZones()).not.toContain(name);
    expect(await callFunction('kiosk-dns', { action: 'delete', id: zone.id }, staffToken)).toEqual({
      status: 404,
      body: { code: 'zone_not_found', message: 'Zone not found' },
    });
    const audit = await all<{ action: string }>(
      pool,
      `select action from public.kiosk_audit_log
       where actor_id = $1 and action like 'dns.%' and (details ->> 'name' = $2 or action = 'dns.zones_synced')
       order by id`,
      [staff.id, name],
    );
    expect(audit.map((row) => row.action)).toEqual([
      'dns.zone_created',
      'dns.zones_synced',
      'dns.zone_deleted',
    ]);
  });

  it("keeps a zone a customer's bought name needs, until the name's term has ended", async () => {
    const name = `bought-${randomUUID().slice(0, 8)}.example.org`;
    const created = await callFunction('kiosk-dns', { action: 'create', name }, staffToken);
    expect(created.status).toBe(201);
    const zone = created.body as { id: string; zone_id: string };
    const { id: accountId } = await one<{ id: string }>(
      pool,
      'select personal_account_id as id from public.profiles where id = $1',
      [staff.id],
    );
    const { id: orderId } = await one<{ id: string }>(
      pool,
      `insert into public.orders (account_id, status, amount) values ($1, 48, 1200) returning id`,
      [accountId],
    );
    const { id: boughtId } = await one<{ id: string }>(
      pool,
      `insert into public.purchased_domains (account_id, order_id, domain, years, status,
         expires_at, zone_id)
       values ($1, $2, $3, 1, 'registered', now() + interval '1 year', $4) returning id`,
      [accountId, orderId, name, zone.zone_id],
    );
    const refusal = {
      code: 'dns_zone_in_use',
      message: `The zone carries ${name}, a domain a customer bought (registered); it cannot be deleted while the name is theirs.`,
    };
    expect(await callFunction('kiosk-dns', { action: 'delete', id: zone.id }, staffToken)).toEqual({
      status: 409,
      body: { ...refusal, errors: { form: [refusal.message] } },
    });
    // Refused before the provider was asked, and refused for the table itself too.
    expect(await sandboxZones()).toContain(name);
    expect(
      await rest(`dns_zones?id=eq.${zone.id}`, { method: 'DELETE', token: staffToken }),
    ).toMatchObject({
      status: 409,
      body: { message: 'dns_zone_in_use', details: refusal.message },
    });
    // A name registered before zones were kept with it is matched by its name.
    await pool.query('update public.purchased_domains set zone_id = null where id = $1', [
      boughtId,
    ]);
    expect(
      await callFunction('kiosk-dns', { action: 'delete', id: zone.id }, staffToken),
    ).toMatchObject({ status: 409, body: { code: 'dns_zone_in_use' } });
    expect(await all(pool, 'select 1 from public.dns_zones where id = $1', [zone.id])).toHaveLength(
      1,
    );

    // Once the name has lapsed, the zone is staff's to delete.
    await pool.query(
      `update public.purchased_domains set status = 'renewal_failed',
         expires_at = now() - interval '1 day' where id = $1`,
      [boughtId],
    );
    expect(await callFunction('kiosk-dns', { action: 'delete', id: zone.id }, staffToken)).toEqual({
      status: 200,
      body: { id: zone.id },
    });
    expect(await sandboxZones()).not.toContain(name);
  });
});
