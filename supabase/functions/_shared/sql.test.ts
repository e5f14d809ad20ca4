import assert from 'node:assert/strict';
import { asCaller, closeSql, sql } from './sql.ts';
import { inAnHour, signToken, useStackAsRuntimeEnv, withAuthorization } from './testing.ts';

const env = useStackAsRuntimeEnv();

Deno.test('asCaller runs as the caller’s role with their claims', async () => {
  try {
    const sub = crypto.randomUUID();
    const token = await signToken(env.SUPABASE_JWT_SECRET, {
      sub,
      role: 'authenticated',
      aal: 'aal1',
      exp: inAnHour(),
    });
    const [row] = await asCaller(
      withAuthorization(`Bearer ${token}`),
      (tx) => tx`select current_user, auth.uid()::text as uid, auth.jwt() ->> 'aal' as aal`,
    );
    assert.deepEqual({ ...row }, { current_user: 'authenticated', uid: sub, aal: 'aal1' });
  } finally {
    await closeSql();
  }
});

Deno.test('asCaller is held to the role’s privileges', async () => {
  try {
    const token = await signToken(env.SUPABASE_JWT_SECRET, { role: 'anon', exp: inAnHour() });
    await assert.rejects(
      asCaller(withAuthorization(`Bearer ${token}`), (tx) => tx`select count(*) from auth.users`),
      /permission denied/,
    );
  } finally {
    await closeSql();
  }
});

Deno.test('asCaller leaves the role and claims behind when its transaction ends', async () => {
  try {
    const token = await signToken(env.SUPABASE_JWT_SECRET, {
      sub: crypto.randomUUID(),
      role: 'authenticated',
      exp: inAnHour(),
    });
    await asCaller(withAuthorization(`Bearer ${token}`), (tx) => tx`select 1`);
    const [row] = await sql()`select current_user, auth.uid() as uid`;
    assert.deepEqual({ ...row }, { current_user: 'postgres', uid: null });
  } finally {
    await closeSql();
  }
});

Deno.test('asCaller refuses a request without a token before touching the database', async () => {
  try {
    let ran = false;
    await assert.rejects(
      asCaller(withAuthorization(undefined), () => {
        ran = true;
        return Promise.resolve();
      }),
      { name: 'HttpError', status: 401 },
    );
    assert.equal(ran, false);
  } finally {
    await closeSql();
  }
});
