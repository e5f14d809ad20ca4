import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { closeSql } from '../_shared/sql.ts';
import {
  inAnHour,
  signToken,
  useStackAsRuntimeEnv,
  withAuthorization,
} from '../_shared/testing.ts';
import {
  createAccountDeleteHandler,
  IMPERSONATION_CANNOT_DELETE,
  PASSWORD_REQUIRED,
  WRONG_PASSWORD,
} from './handler.ts';

/**
 * The handler called directly, against the running local stack (Auth, database, Storage);
 * supabase/tests/profile-delete*.test.ts cover the same over HTTP and what the deletion removes.
 */
const env = useStackAsRuntimeEnv();
const deleteAccount = createAccountDeleteHandler();
const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});

async function createUser() {
  const email = `delete-${crypto.randomUUID().slice(0, 8)}@functions.test`;
  const password = `Pw-${crypto.randomUUID()}`;
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error) throw error;
  const token = await signToken(env.SUPABASE_JWT_SECRET, {
    role: 'authenticated',
    aud: 'authenticated',
    sub: data.user.id,
    email,
    exp: inAnHour(),
  });
  return { id: data.user.id, email, password, authorization: `Bearer ${token}` };
}

async function call(authorization: string, body: unknown, method = 'POST') {
  const response = await deleteAccount(
    withAuthorization(authorization, {
      method,
      body: method === 'POST' ? JSON.stringify(body) : undefined,
    }),
  );
  return { status: response.status, body: await response.json() };
}

async function exists(userId: string) {
  const { data } = await admin.auth.admin.getUserById(userId);
  return data.user != null;
}

function test(name: string, fn: () => Promise<void>) {
  Deno.test(name, async () => {
    try {
      await fn();
    } finally {
      await closeSql();
    }
  });
}

test('answers 405 to anything but POST, and 422 without a password or with a wrong one', async () => {
  const user = await createUser();
  try {
    assert.equal((await call(user.authorization, null, 'GET')).status, 405);
    assert.deepEqual((await call(user.authorization, {})).body.errors, {
      password: [PASSWORD_REQUIRED],
    });
    assert.deepEqual((await call(user.authorization, { password: 'wrong' })).body, {
      code: 'validation_failed',
      message: WRONG_PASSWORD,
      errors: { password: [WRONG_PASSWORD] },
    });
    assert.equal(await exists(user.id), true);
  } finally {
    await admin.auth.admin.deleteUser(user.id);
  }
});

test('refuses a service-role caller and an impersonation token, even with the password', async () => {
  const user = await createUser();
  try {
    const service = await call(`Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`, {
      password: user.password,
    });
    assert.equal(service.status, 403);
    const impersonation = await signToken(env.SUPABASE_JWT_SECRET, {
      role: 'authenticated',
      sub: user.id,
      impersonator: crypto.randomUUID(),
      impersonation_id: 1,
      exp: inAnHour(),
    });
    const staff = await call(`Bearer ${impersonation}`, { password: user.password });
    const refused = {
      status: 403,
      body: { code: 'impersonation_not_allowed', message: IMPERSONATION_CANNOT_DELETE },
    };
    assert.deepEqual(staff, refused);
    // Known by its amr too, as Auth and the database know it.
    const byAmr = await signToken(env.SUPABASE_JWT_SECRET, {
      role: 'authenticated',
      sub: user.id,
      amr: [{ method: 'impersonation', timestamp: Math.floor(Date.now() / 1000) }],
      exp: inAnHour(),
    });
    assert.deepEqual(await call(`Bearer ${byAmr}`, { password: user.password }), refused);
    assert.equal(await exists(user.id), true);
  } finally {
    await admin.auth.admin.deleteUser(user.id);
  }
});

test('with the right password deletes the user', async () => {
  const user = await createUser();
  const answer = await call(user.authorization, { password: user.password });
  assert.deepEqual(answer, { status: 200, body: { deleted: true, files_removed: 0 } });
  assert.equal(await exists(user.id), false);
});
