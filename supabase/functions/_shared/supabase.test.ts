import assert from 'node:assert/strict';
import { callerClient, serviceClient } from './supabase.ts';
import { inAnHour, signToken, useStackAsRuntimeEnv, withAuthorization } from './testing.ts';

const env = useStackAsRuntimeEnv();

Deno.test('callerClient sends the caller’s token to the API, not the anon key', async () => {
  // PostgREST judges the token it receives: an expired caller token must be what it rejects.
  const expired = await signToken(env.SUPABASE_JWT_SECRET, {
    sub: crypto.randomUUID(),
    role: 'authenticated',
    exp: Math.floor(Date.now() / 1000) - 60,
  });
  const { error, status } = await callerClient(withAuthorization(`Bearer ${expired}`))
    .from('no_such_table')
    .select();
  assert.equal(status, 401);
  assert.match(error?.message ?? '', /expired/i);
});

Deno.test('callerClient with a valid token gets past authentication', async () => {
  const token = await signToken(env.SUPABASE_JWT_SECRET, {
    sub: crypto.randomUUID(),
    role: 'authenticated',
    exp: inAnHour(),
  });
  const { status } = await callerClient(withAuthorization(`Bearer ${token}`))
    .from('no_such_table')
    .select();
  // Authenticated, then told the table does not exist.
  assert.equal(status, 404);
});

Deno.test('callerClient refuses a request without a caller', () => {
  assert.throws(() => callerClient(withAuthorization(undefined)), { status: 401 });
});

Deno.test('serviceClient acts with the service role key', async () => {
  // A loopback server in place of the API shows exactly what the client sends.
  const seen: Headers[] = [];
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, (req) => {
    seen.push(req.headers);
    return Response.json([]);
  });
  const previous = Deno.env.get('SUPABASE_URL');
  try {
    Deno.env.set('SUPABASE_URL', `http://127.0.0.1:${server.addr.port}`);
    await serviceClient().from('links').select();
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.get('apikey'), env.SUPABASE_SERVICE_ROLE_KEY);
    assert.equal(seen[0]?.get('authorization'), `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`);
  } finally {
    if (previous) Deno.env.set('SUPABASE_URL', previous);
    await server.shutdown();
  }
});
