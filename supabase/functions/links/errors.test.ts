import assert from 'node:assert/strict';
import { HttpError } from '../_shared/http.ts';
import { codedDatabaseError, formField, refusalFromDatabase } from './errors.ts';

const refusal = (error: unknown) => {
  const coded = codedDatabaseError(error);
  assert.ok(coded, 'a coded error');
  const http = refusalFromDatabase(coded);
  assert.ok(http instanceof HttpError);
  return { status: http.status, code: http.code, message: http.message, errors: http.errors };
};

Deno.test('keeps the form fields and sends every other name to form', () => {
  for (const field of ['url', 'domain', 'alias', 'description', 'team', 'tags', 'tags.3'])
    assert.equal(formField(field), field);
  for (const field of ['organization', 'invitation', 'tags.x', 'rules', '', null, undefined])
    assert.equal(formField(field), 'form');
});

Deno.test('maps RPC codes to the spec message on their field, keeping the status', () => {
  assert.deepEqual(
    refusal({
      code: 'PT402',
      message: 'not_subscribed',
      detail: 'billing.not_subscribed',
      hint: 'domain',
    }),
    {
      status: 402,
      code: 'not_subscribed',
      message: 'billing.not_subscribed',
      errors: { domain: ['billing.not_subscribed'] },
    },
  );
  assert.deepEqual(
    refusal({ code: 'PT422', message: 'tag_duplicate', detail: 'x', hint: 'tags.2' }),
    {
      status: 422,
      code: 'tag_duplicate',
      message: 'The tag has already been taken.',
      errors: { 'tags.2': ['The tag has already been taken.'] },
    },
  );
  // No hint: the code's own field.
  assert.deepEqual(refusal({ code: 'PT403', message: 'viewer_cannot_create' }).errors, {
    team: ['You are not a selected team member'],
  });
  // A code the shared table does not know: the database's wording, on form.
  assert.deepEqual(
    refusal({
      code: 'PT404',
      message: 'organization_not_found',
      detail: 'Organization not found.',
      hint: 'organization',
    }),
    {
      status: 404,
      code: 'organization_not_found',
      message: 'Organization not found.',
      errors: { form: ['Organization not found.'] },
    },
  );
});

Deno.test('ignores errors that are not coded', () => {
  for (const error of [null, 'PT422', new Error('x'), { code: '23505', message: 'dup' }])
    assert.equal(codedDatabaseError(error), null);
});
