import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import {
  inAnHour,
  signToken,
  useStackAsRuntimeEnv,
  userAuthorization,
  withAuthorization,
} from '../_shared/testing.ts';
import { whoami } from './handler.ts';

const env = useStackAsRuntimeEnv();

async function insertUser(): Promise<string> {
  const id = crypto.randomUUID();
  await sql()`
    insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
    values (${id}, 'authenticated', 'authenticated', ${`whoami-${id}@example.test`}, now(), now(), now())`;
  return id;
}

Deno.test('whoami answers the signed-in user as the database sees them', async () => {
  try {
    const id = await insertUser();
    const answer = await whoami(
      withAuthorization(await userAuthorization(env, id), { method: 'POST' }),
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { user_id: id, role: 'authenticated', aal: 'aal1' });
  } finally {
    await closeSql();
  }
});

Deno.test('whoami answers an anonymous caller (the anon key)', async () => {
  try {
    const answer = await whoami(withAuthorization(`Bearer ${env.SUPABASE_ANON_KEY}`));
    assert.deepEqual(await answer.json(), { user_id: null, role: 'anon', aal: null });
  } finally {
    await closeSql();
  }
});

Deno.test('whoami refuses a request without a token', async () => {
  const answer = await whoami(withAuthorization(undefined));
  assert.equal(answer.status, 401);
  assert.deepEqual(await answer.json(), {
    code: 'invalid_jwt',
    message: 'Missing authorization header',
  });
});

Deno.test('whoami refuses a token naming a role it may not take', async () => {
  const token = await signToken(env.SUPABASE_JWT_SECRET, { role: 'postgres', exp: inAnHour() });
  const answer = await whoami(withAuthorization(`Bearer ${token}`));
  assert.equal(answer.status, 401);
  assert.equal((await answer.json()).message, 'Invalid JWT');
});

Deno.test('whoami answers a CORS preflight', async () => {
  const answer = await whoami(new Request('http://functions.test/whoami', { method: 'OPTIONS' }));
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('Access-Control-Allow-Origin'), '*');
});
