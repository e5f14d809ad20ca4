import assert from 'node:assert/strict';
import { createApiApp, createApiHandler } from './app.ts';
import { OPERATIONS, openApiDocument } from './openapi.ts';
import { apiDependencies } from './test-scene.ts';

Deno.test('the document describes exactly the routes the app serves', () => {
  const app = createApiApp(apiDependencies());
  const served = app.routes
    .filter((route) => route.method !== 'ALL')
    .map((route) => `${route.method} ${route.path}`)
    .filter((route) => route !== 'GET /api/openapi.json')
    .sort();
  const documented = OPERATIONS.map(
    (operation) =>
      `${operation.method.toUpperCase()} /api${operation.path.replace(/\{(\w+)\}/g, ':$1')}`,
  ).sort();
  assert.deepEqual(served, documented);
});

Deno.test('the function serves the document at /openapi.json without a token', async () => {
  const api = createApiHandler(apiDependencies());
  const response = await api(new Request('http://functions.test/api/openapi.json'));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), openApiDocument());
});

Deno.test('the checked-in document is the one the schemas give', async () => {
  const committed = JSON.parse(
    await Deno.readTextFile(new URL('../../../shared/src/api/openapi.json', import.meta.url)),
  );
  assert.deepEqual(committed, openApiDocument());
});
