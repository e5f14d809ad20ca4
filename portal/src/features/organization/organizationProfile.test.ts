import { describe, expect, it } from 'vitest';
import { ApiError } from '../../data/unwrap.ts';
import {
  NAME_REQUIRED,
  profileErrors,
  SLUG_INVALID,
  SLUG_TAKEN,
  slugFromName,
  validateProfileDraft,
} from './organizationProfile.ts';

const refused = (status: number, body: object) => new ApiError('refused', status, body);

describe('validateProfileDraft', () => {
  it('wants a name and a slug of lower-case words joined by dashes', () => {
    expect(validateProfileDraft({ name: 'Acme', slug: 'acme-2' })).toEqual({});
    expect(validateProfileDraft({ name: '  ', slug: 'acme' })).toEqual({ name: NAME_REQUIRED });
    for (const slug of ['', 'Acme', 'acme_co', '-acme', 'acme-', 'a--b', 'a b']) {
      expect(validateProfileDraft({ name: 'Acme', slug }).slug).toBe(SLUG_INVALID);
    }
    expect(validateProfileDraft({ name: 'Acme', slug: 'a'.repeat(65) }).slug).toMatch(/64/);
  });
});

describe('slugFromName', () => {
  it('suggests a valid slug', () => {
    expect(slugFromName('  Acme & Sons, Café! ')).toBe('acme-sons-cafe');
    expect(slugFromName('***')).toBe('');
    const long = slugFromName('word '.repeat(30));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(validateProfileDraft({ name: 'x', slug: long })).toEqual({});
  });
});

describe('profileErrors', () => {
  it("says the RPC catalogue's messages on their fields", () => {
    expect(profileErrors(refused(422, { code: 'PT422', message: 'slug_taken' }))).toEqual({
      slug: SLUG_TAKEN,
    });
    expect(profileErrors(refused(422, { code: 'PT422', message: 'name_required' }))).toEqual({
      name: NAME_REQUIRED,
    });
    expect(profileErrors(refused(403, { code: 'PT403', message: 'permission_denied' }))).toEqual({
      form: 'Permission denied',
    });
  });

  it('maps the constraints of a direct update', () => {
    expect(profileErrors(refused(409, { code: '23505' }))).toEqual({ slug: SLUG_TAKEN });
    expect(profileErrors(refused(400, { code: '23514' }))).toEqual({ slug: SLUG_INVALID });
    expect(profileErrors(refused(406, { code: 'PGRST116' })).form).toMatch(/not allowed/);
    expect(profileErrors(new Error('network')).form).toMatch(/Try again/);
  });
});
