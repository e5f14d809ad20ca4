import {
  createClient,
  FunctionsHttpError,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import ws from 'ws';
import { signToken } from '../src/jwt.ts';

/**
 * The whoami function through the gateway, invoked as the apps do (supabase-js
 * functions.invoke): the runtime's JWT gate, and the caller's identity read back from Postgres.
 */

type RealtimeTransport = NonNullable<
  NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']
>;

const env = inject('stackEnv');
const supabase = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
  // Node 20 has no global WebSocket; supabase-js wants a transport even with realtime unused
  // (ws's first constructor overload does not fit realtime-js's interface, hence the cast).
  realtime: { transport: ws as unknown as RealtimeTransport },
});
const db = new pg.Client({ connectionString: env.DB_URL });
const now = () => Math.floor(Date.now() / 1000);
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

let userId: string;
const claimsFor = (id: string, exp = now() + 600) => ({
  sub: id,
  role: 'authenticated',
  aud: 'authenticated',
  aal: 'aal1' as const,
  email: `whoami-${id}@example.test`,
  session_id: crypto.randomUUID(),
  exp,
});

beforeAll(async () => {
  await db.connect();
  userId = crypto.randomUUID();
  await db.query(
    `insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, now(), now(), now())`,
    [userId, `whoami-${userId}@example.test`],
  );
});

afterAll(async () => {
  await db.query('delete from auth.users where id = $1', [userId]);
  await db.end();
});

async function invokeWith(authorization: string) {
  const { data, error } = await supabase.functions.invoke('whoami', {
    headers: { Authorization: authorization },
  });
  if (!error) return { status: 200, body: data as unknown };
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const response = (error as FunctionsHttpError).context as Response;
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('whoami through /functions/v1', () => {
  it("answers the signed-in user's id, role and aal as the database reads them", async () => {
    const token = await signToken(env.SUPABASE_JWT_SECRET, claimsFor(userId));
    expect(await invokeWith(`Bearer ${token}`)).toEqual({
      status: 200,
      body: { user_id: userId, role: 'authenticated', aal: 'aal1' },
    });
  });

  it('answers the anonymous role for the anon key supabase-js sends without a session', async () => {
    const { data, error } = await supabase.functions.invoke('whoami');
    expect(error).toBeNull();
    expect(data).toEqual({ user_id: null, role: 'anon', aal: null });
  });

  it('refuses a request without a JWT', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/functions/v1/whoami`, { method: 'POST' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ msg: 'Error: Missing authorization header' });
  });

  it('refuses an expired JWT', async () => {
    const token = await signToken(env.SUPABASE_JWT_SECRET, claimsFor(userId, now() - 10));
    expect(await invokeWith(`Bearer ${token}`)).toEqual({
      status: 401,
      body: { msg: 'Invalid JWT' },
    });
  });

  it('refuses a JWT signed with another secret', async () => {
    const token = await signToken(
      'another-secret-that-is-at-least-32-characters',
      claimsFor(userId),
    );
    expect(await invokeWith(`Bearer ${token}`)).toEqual({
      status: 401,
      body: { msg: 'Invalid JWT' },
    });
  });

  it('refuses an unsigned JWT (alg none)', async () => {
    const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claimsFor(userId))}.`;
    expect(await invokeWith(`Bearer ${token}`)).toEqual({
      status: 401,
      body: { msg: 'Invalid JWT' },
    });
  });

  it('answers 404 for a function that does not exist', async () => {
    const { error } = await supabase.functions.invoke('no-such-function');
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Function not found');
  });
});
