import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../data/unwrap.ts';
import { presetSaveFailure } from './presetSaveFailure.ts';

const apiError = (status: number, body: unknown) => new ApiError('failed', status, body);

describe('presetSaveFailure (link-creation 8, "Preset create")', () => {
  it('puts a 422 onto the named field', () => {
    expect(
      presetSaveFailure(
        apiError(422, {
          code: 'PT422',
          message: 'utm_preset_invalid',
          details: 'The utm medium must not be greater than 50.',
          hint: 'utm_medium',
        }),
      ),
    ).toEqual({
      kind: 'fields',
      fieldErrors: { utm_medium: 'The utm medium must not be greater than 50.' },
    });
    expect(
      presetSaveFailure(apiError(422, { errors: { name: ['The name field is required.'] } })),
    ).toEqual({ kind: 'fields', fieldErrors: { name: 'The name field is required.' } });
  });

  it("otherwise shows the server's message", () => {
    expect(
      presetSaveFailure(
        apiError(403, {
          code: 'PT403',
          message: 'permission_denied',
          details: 'Permission denied',
        }),
      ),
    ).toEqual({ kind: 'notice', message: 'Permission denied' });
    expect(
      presetSaveFailure(apiError(409, { code: '23505', message: 'Name clash', details: null })),
    ).toEqual({ kind: 'notice', message: 'Name clash' });
    expect(
      presetSaveFailure(
        apiError(422, {
          code: 'PT422',
          message: 'utm_preset_invalid',
          hint: 'form',
          details: 'No',
        }),
      ),
    ).toEqual({ kind: 'notice', message: 'No' });
  });

  it('otherwise the generic text', () => {
    expect(presetSaveFailure(apiError(500, null))).toEqual({
      kind: 'notice',
      message: 'Something went wrong.',
    });
    expect(presetSaveFailure(new TypeError('Failed to fetch'))).toEqual({
      kind: 'notice',
      message: 'Something went wrong.',
    });
  });
});
