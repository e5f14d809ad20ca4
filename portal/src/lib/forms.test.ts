import { FunctionsHttpError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../data/unwrap.ts';
import { apiFormErrors, formErrorsFromError } from './forms.ts';

describe('form errors from the API', () => {
  it('keeps the first message per field of a 422 errors map', () => {
    expect(
      apiFormErrors(422, {
        errors: {
          url: ['The URL field is required.', 'Second.'],
          alias: ['This alias is reserved.'],
        },
      }),
    ).toEqual({ url: 'The URL field is required.', alias: 'This alias is reserved.' });
  });

  it("puts an RPC's coded error on the field its hint names", () => {
    const body = { code: 'PT422', message: 'tag_too_short', details: null, hint: 'tags.1' };
    expect(apiFormErrors(422, body)).toEqual({
      'tags.1': 'The tag must be at least 2 characters.',
    });
  });

  it('reads an ApiError and a FunctionsHttpError alike', async () => {
    const fromRest = new ApiError('alias_taken', 422, {
      code: 'PT422',
      message: 'alias_taken',
      details: null,
      hint: 'alias',
    });
    expect(await formErrorsFromError(fromRest)).toEqual({ alias: 'The new alias is not unique' });

    const response = new Response(
      JSON.stringify({ errors: { url: ['This URL is not allowed.'] } }),
      {
        status: 422,
        headers: { 'content-type': 'application/json' },
      },
    );
    expect(await formErrorsFromError(new FunctionsHttpError(response))).toEqual({
      url: 'This URL is not allowed.',
    });
  });

  it('maps a failure without an answer to no field', async () => {
    expect(await formErrorsFromError(new TypeError('Failed to fetch'))).toEqual({});
  });
});
