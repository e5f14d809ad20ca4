import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  errorMessage,
  globalResponseAction,
  isErrorCode,
  mapApiError,
  statusMessage,
} from './errors.ts';

describe('error-code table (data-model contract)', () => {
  it('carries status, spec message and field for each code', () => {
    expect(ERROR_CODES.url_required).toEqual({
      status: 422,
      message: 'The URL field is required.',
      field: 'url',
    });
    expect(ERROR_CODES.alias_taken).toEqual({
      status: 422,
      message: 'The new alias is not unique',
      field: 'alias',
    });
    expect(ERROR_CODES.plan_limit_reached.status).toBe(402);
    expect(ERROR_CODES.already_member.status).toBe(409);
    expect(ERROR_CODES.viewer_cannot_create.message).toBe('You are not a selected team member');
    expect(ERROR_CODES.tag_too_long.message).toBe(
      'The tag must not be greater than 45 characters.',
    );
  });

  it('uses only the statuses the contract allows', () => {
    const statuses = new Set(Object.values(ERROR_CODES).map((entry) => entry.status));
    expect([...statuses].sort()).toEqual([402, 403, 404, 409, 422]);
  });

  it('recognises codes and takes templated messages from details', () => {
    expect(isErrorCode('alias_reserved')).toBe(true);
    expect(isErrorCode('hasOwnProperty')).toBe(false);
    expect(isErrorCode(42)).toBe(false);
    expect(errorMessage('protected_column', 'email cannot be changed.')).toBe(
      'email cannot be changed.',
    );
    expect(errorMessage('alias_reserved', 'ignored')).toBe('This alias is reserved.');
  });
});

describe('mapping API errors to form errors and notices', () => {
  it('maps a PostgREST error body with our code to its field and spec message', () => {
    const body = {
      code: 'PT422',
      message: 'tag_too_short',
      details: 'The tag must be at least 2 characters.',
      hint: 'tags.2',
    };
    expect(mapApiError(422, body)).toEqual({
      status: 422,
      code: 'tag_too_short',
      fieldErrors: { 'tags.2': 'The tag must be at least 2 characters.' },
      notices: ['The tag must be at least 2 characters.'],
    });
  });

  it("falls back to the table's field when the hint is empty", () => {
    const body = { code: 'PT402', message: 'plan_limit_reached', details: null, hint: null };
    expect(mapApiError(402, body).fieldErrors).toEqual({
      form: "You've hit your plan's limit for creating links",
    });
  });

  it('names the protected column from the hint and details', () => {
    const body = {
      code: 'PT403',
      message: 'protected_column',
      details: 'owner_id cannot be changed.',
      hint: 'owner_id',
    };
    expect(mapApiError(403, body).fieldErrors).toEqual({ owner_id: 'owner_id cannot be changed.' });
  });

  it('turns an RLS refusal (42501) into Permission denied', () => {
    const body = {
      code: '42501',
      message: 'new row violates row-level security policy for table "links"',
      details: null,
      hint: null,
    };
    expect(mapApiError(403, body)).toEqual({
      status: 403,
      code: 'permission_denied',
      fieldErrors: { form: 'Permission denied' },
      notices: ['Permission denied'],
    });
  });

  it('keeps the first message per field of a 422 errors map and shows every message as a notice', () => {
    const body = {
      message: 'The given data was invalid.',
      errors: {
        url: ['The URL field is required.', 'The url must be a valid URL.'],
        alias: ['This alias is reserved.'],
        empty: [],
      },
    };
    expect(mapApiError(422, body)).toEqual({
      status: 422,
      code: null,
      fieldErrors: { url: 'The URL field is required.', alias: 'This alias is reserved.' },
      notices: [
        'The URL field is required.',
        'The url must be a valid URL.',
        'This alias is reserved.',
      ],
    });
  });

  it('gives unknown bodies the global notice of their status', () => {
    expect(mapApiError(500, 'Internal Server Error').notices).toEqual(['Something went wrong.']);
    expect(
      mapApiError(404, { code: 'PGRST116', message: 'no rows', details: null, hint: null }),
    ).toEqual({ status: 404, code: null, fieldErrors: {}, notices: ['Not Found'] });
  });
});

describe('global status-code table (app-shell 8)', () => {
  it('names each status as the spec does', () => {
    expect(statusMessage(402)).toBe('Payment Required');
    expect(statusMessage(403)).toBe('Permission denied');
    expect(statusMessage(404)).toBe('Not Found');
    expect(statusMessage(419)).toBe('Security check fails');
    expect(statusMessage(422)).toBe('Validation fails');
    expect(statusMessage(431)).toBe('Something went wrong.');
    // The table has no 429: the abuse limits' own message arrives as the form's error.
    expect(statusMessage(429)).toBe('Something went wrong.');
    expect(
      mapApiError(429, {
        code: 'too_many_attempts',
        message: 'Too Many Attempts.',
        errors: { form: ['Too Many Attempts.'] },
      }).fieldErrors,
    ).toEqual({ form: 'Too Many Attempts.' });
    expect(statusMessage(500)).toBe('Something went wrong.');
    expect(statusMessage(503)).toBe('Something went wrong.');
  });

  it('expires the session on 401 and asks for the password on 423', () => {
    expect(globalResponseAction(401)).toEqual({
      kind: 'session_expired',
      message: 'Session expired.',
      durationMs: 3000,
    });
    expect(globalResponseAction(423)).toEqual({ kind: 'confirm_password' });
  });

  it('shows global notices for 3 s', () => {
    expect(globalResponseAction(402)).toEqual({
      kind: 'notice',
      message: 'Payment Required',
      durationMs: 3000,
    });
    expect(globalResponseAction(502)).toEqual({
      kind: 'notice',
      message: 'Something went wrong.',
      durationMs: 3000,
    });
  });

  it('opens the error modal for a non-JSON error and does nothing on success', () => {
    expect(globalResponseAction(500, false)).toEqual({
      kind: 'error_modal',
      message: 'Something went wrong.',
    });
    expect(globalResponseAction(200, false)).toEqual({ kind: 'none' });
    expect(globalResponseAction(204)).toEqual({ kind: 'none' });
  });
});
