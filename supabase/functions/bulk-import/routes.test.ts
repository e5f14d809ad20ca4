import assert from 'node:assert/strict';
import { HttpError } from '../_shared/http.ts';
import { readBulkForm } from './form.ts';
import { FILE_MESSAGES } from './file-refusal.ts';
import { MAX_BODY_BYTES } from './limits.ts';
import { matchRoute } from './routes.ts';

Deno.test('the three upload routes, with and without the functions prefix', () => {
  assert.deepEqual(matchRoute('/bulk-import/bulk/csv'), {
    kind: 'upload',
    organization: null,
    team: undefined,
  });
  assert.deepEqual(matchRoute('/functions/v1/bulk-import/bulk/csv/'), {
    kind: 'upload',
    organization: null,
    team: undefined,
  });
  assert.deepEqual(matchRoute('/bulk-import/organization/acme/team/sales-emea/bulk/csv'), {
    kind: 'upload',
    organization: 'acme',
    team: 'sales-emea',
  });
  assert.deepEqual(matchRoute('/bulk-import/organization/acme/personal/bulk/csv'), {
    kind: 'upload',
    organization: 'acme',
    team: null,
  });
});

Deno.test('the job status route names the job by its id (lower-cased)', () => {
  assert.deepEqual(matchRoute('/bulk-import/bulk/jobs/0A1B2C3D-4E5F-4a6b-8c7d-9e0f1a2b3c4d'), {
    kind: 'job',
    jobId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  });
});

Deno.test('anything else is a 404', () => {
  for (const path of [
    '/bulk-import',
    '/bulk-import/bulk/xlsx',
    '/bulk-import/organization/ACME/personal/bulk/csv',
    '/bulk-import/organization/acme/team//bulk/csv',
    '/other/bulk/csv',
    '/bulk-import/bulk/jobs',
    '/bulk-import/bulk/jobs/not-a-uuid',
    '/bulk-import/bulk/jobs/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/rows',
  ]) {
    assert.throws(
      () => matchRoute(path),
      (error: unknown) => error instanceof HttpError && error.status === 404,
      path,
    );
  }
});

const formRequest = (form: FormData) =>
  new Request('http://functions.test/bulk-import/bulk/csv', { method: 'POST', body: form });

Deno.test('the form: file, domain, withHeader (default true), team (slug or null)', async () => {
  const form = new FormData();
  form.set('file', new File(['url\nhttps://a.example/'], 'links.csv', { type: 'text/csv' }));
  form.set('domain', ' sho.rt ');
  form.set('team', 'null');
  const read = await readBulkForm(formRequest(form));
  assert.equal(read.file?.name, 'links.csv');
  assert.equal(new TextDecoder().decode(read.file?.bytes), 'url\nhttps://a.example/');
  assert.equal(read.domain, 'sho.rt');
  assert.equal(read.withHeader, true);
  assert.equal(read.team, null);

  form.set('withHeader', 'false');
  form.set('team', 'sales');
  const second = await readBulkForm(formRequest(form));
  assert.equal(second.withHeader, false);
  assert.equal(second.team, 'sales');
  form.set('withHeader', 'maybe');
  assert.equal((await readBulkForm(formRequest(form))).withHeader, null);
});

Deno.test('an oversized body is refused as a file error without being read whole', async () => {
  const form = new FormData();
  form.set('file', new File([new Uint8Array(MAX_BODY_BYTES + 1)], 'big.csv'));
  await assert.rejects(readBulkForm(formRequest(form)), (error: unknown) => {
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 422);
    assert.deepEqual(error.errors, { file: [FILE_MESSAGES.size] });
    return true;
  });
});

Deno.test('a body that is not multipart is refused', async () => {
  const request = new Request('http://functions.test/bulk-import/bulk/csv', {
    method: 'POST',
    body: JSON.stringify({ file: 'x' }),
    headers: { 'Content-Type': 'application/json' },
  });
  await assert.rejects(
    readBulkForm(request),
    (error: unknown) => error instanceof HttpError && error.status === 422,
  );
});
