import assert from 'node:assert/strict';
import { handler, HttpError, json } from './http.ts';

const request = (method = 'POST') => new Request('http://functions.test/fn', { method });

Deno.test('json answers with the body, status and CORS headers', async () => {
  const answer = json({ ok: true }, 201, { 'X-Extra': '1' });
  assert.equal(answer.status, 201);
  assert.equal(answer.headers.get('Content-Type'), 'application/json');
  assert.equal(answer.headers.get('Access-Control-Allow-Origin'), '*');
  assert.equal(answer.headers.get('X-Extra'), '1');
  assert.deepEqual(await answer.json(), { ok: true });
});

Deno.test('handler answers a preflight without running the function', async () => {
  let ran = false;
  const serve = handler(() => {
    ran = true;
    return Promise.resolve(json({}));
  });
  const answer = await serve(request('OPTIONS'));
  assert.equal(answer.status, 200);
  assert.equal(ran, false);
});

Deno.test('handler turns an HttpError into its status and JSON body', async () => {
  const serve = handler(() => {
    throw new HttpError(422, 'Validation fails', 'validation_failed', { alias: ['Taken.'] });
  });
  const answer = await serve(request());
  assert.equal(answer.status, 422);
  assert.equal(answer.headers.get('Access-Control-Allow-Origin'), '*');
  assert.deepEqual(await answer.json(), {
    code: 'validation_failed',
    message: 'Validation fails',
    errors: { alias: ['Taken.'] },
  });
});

Deno.test('handler hides unexpected errors behind a 500', async () => {
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(...args);
  try {
    const serve = handler(() => Promise.reject(new Error('password=secret in a stack trace')));
    const answer = await serve(request());
    assert.equal(answer.status, 500);
    const body = await answer.json();
    assert.deepEqual(body, { code: 'internal_error', message: 'Internal server error' });
    assert.equal(logged.length, 1, 'the error is logged for the operator');
  } finally {
    console.error = original;
  }
});

Deno.test('handler passes a successful answer through', async () => {
  const serve = handler((req) => Promise.resolve(json({ method: req.method })));
  const answer = await serve(request('PATCH'));
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { method: 'PATCH' });
});
