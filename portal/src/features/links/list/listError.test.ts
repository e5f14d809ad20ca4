import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../data/unwrap.ts';
import { listLoadErrorMessages } from './listError.ts';

describe('listLoadErrorMessages', () => {
  it('gives every message of an errors map', () => {
    const error = new ApiError('x', 422, { errors: { state: ['Bad state.'], q: ['Bad query.'] } });
    expect(listLoadErrorMessages(error)).toEqual(['Bad state.', 'Bad query.']);
  });

  it('reads one of our error codes as its spec message', () => {
    const body = { code: 'PT404', message: 'alias_not_found', details: null, hint: 'alias' };
    expect(listLoadErrorMessages(new ApiError('alias_not_found', 404, body))).toEqual([
      'Alias not found',
    ]);
  });

  it('passes another server message on as written', () => {
    const body = { code: 'PGRST100', message: 'failed to parse filter', details: null, hint: null };
    expect(listLoadErrorMessages(new ApiError('x', 400, body))).toEqual(['failed to parse filter']);
  });

  it('says something went wrong when the answer carried no message', () => {
    expect(listLoadErrorMessages(new ApiError('x', 500, null))).toEqual(['Something went wrong.']);
    expect(listLoadErrorMessages(new TypeError('Failed to fetch'))).toEqual([
      'Something went wrong.',
    ]);
  });
});
