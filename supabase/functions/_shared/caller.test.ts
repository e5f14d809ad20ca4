import assert from 'node:assert/strict';
import { callerOf } from './caller.ts';
import { HttpError } from './http.ts';
import { inAnHour, signToken, withAuthorization } from './testing.ts';

const secret = 'a-test-secret-that-is-at-least-32-characters';

function refusal(authorization: string | undefined): HttpError {
  try {
    callerOf(withAuthorization(authorization));
  } catch (error) {
    assert.ok(error instanceof HttpError);
    return error;
  }
  throw new Error('the caller was accepted');
}

Deno.test("callerOf reads the bearer token's claims", async () => {
  const token = await signToken(secret, {
    sub: '6f1c1c1e-0000-4000-8000-000000000001',
    role: 'authenticated',
    aal: 'aal2',
    exp: inAnHour(),
  });
  const caller = callerOf(withAuthorization(`Bearer ${token}`));
  assert.equal(caller.token, token);
  assert.equal(caller.authorization, `Bearer ${token}`);
  assert.equal(caller.claims.role, 'authenticated');
  assert.equal(caller.claims.sub, '6f1c1c1e-0000-4000-8000-000000000001');
  assert.equal(caller.claims.aal, 'aal2');
});

Deno.test('callerOf refuses a request without Authorization', () => {
  const error = refusal(undefined);
  assert.equal(error.status, 401);
  assert.equal(error.message, 'Missing authorization header');
});

Deno.test('callerOf refuses a non-bearer Authorization', () => {
  assert.equal(refusal('Basic dXNlcjpwYXNz').message, "Auth header is not 'Bearer {token}'");
});

Deno.test('callerOf refuses a token it cannot decode', () => {
  for (const token of ['garbage', 'a.b.c', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig']) {
    const error = refusal(`Bearer ${token}`);
    assert.equal(error.status, 401);
    assert.equal(error.message, 'Invalid JWT');
  }
});

Deno.test('callerOf refuses a role the API never grants (no `set role postgres`)', async () => {
  for (const role of ['postgres', 'supabase_admin', undefined]) {
    const token = await signToken(secret, { role, exp: inAnHour() });
    assert.equal(refusal(`Bearer ${token}`).message, 'Invalid JWT');
  }
});
