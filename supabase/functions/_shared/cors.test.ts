import assert from 'node:assert/strict';
import { corsHeaders, preflight } from './cors.ts';

Deno.test('preflight answers OPTIONS with the CORS headers', async () => {
  const answer = preflight(new Request('http://functions.test/fn', { method: 'OPTIONS' }));
  assert.ok(answer);
  assert.equal(answer.status, 200);
  assert.equal(await answer.text(), 'ok');
  assert.equal(answer.headers.get('Access-Control-Allow-Origin'), '*');
  assert.match(answer.headers.get('Access-Control-Allow-Headers') ?? '', /authorization/);
  assert.match(answer.headers.get('Access-Control-Allow-Headers') ?? '', /apikey/);
});

Deno.test('preflight lets every other method through', () => {
  for (const method of ['GET', 'POST', 'DELETE'])
    assert.equal(preflight(new Request('http://functions.test/fn', { method })), undefined);
});

Deno.test('the allowed headers cover what supabase-js sends', () => {
  const allowed = corsHeaders['Access-Control-Allow-Headers']?.split(/,\s*/) ?? [];
  for (const header of ['authorization', 'x-client-info', 'apikey', 'content-type'])
    assert.ok(allowed.includes(header), `${header} is not allowed`);
});
