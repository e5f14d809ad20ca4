import { describe, expect, it } from 'vitest';
import { profileUpdateSchema } from './profile.ts';
import { firstErrorPerField } from './rules.ts';

function errorsOf(input: unknown): Record<string, string> {
  const result = profileUpdateSchema.safeParse(input);
  return result.success ? {} : firstErrorPerField(result.error);
}

describe('profile update schema (app-shell 5)', () => {
  it('accepts a name, an e-mail and a png or jpg photo', () => {
    const photo = { name: 'me.jpg', size: 5000, type: 'image/jpeg' };
    expect(profileUpdateSchema.parse({ name: ' Ada ', email: 'ada@example.com', photo })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      photo,
    });
    expect(
      profileUpdateSchema.parse({ name: 'Ada', email: 'ada@example.com' }).photo,
    ).toBeUndefined();
  });

  it('refuses other photo types, a blank name and a bad e-mail', () => {
    expect(
      errorsOf({
        name: ' ',
        email: 'ada',
        photo: { name: 'me.webp', size: 10, type: 'image/webp' },
      }),
    ).toEqual({
      name: 'The name field is required.',
      email: 'The email must be a valid email address.',
      photo: 'The photo must be a file of type: png, jpg.',
    });
  });

  it('limits the name to 255 characters', () => {
    expect(errorsOf({ name: 'a'.repeat(255), email: 'ada@example.com' })).toEqual({});
    expect(errorsOf({ name: 'a'.repeat(256), email: 'ada@example.com' })).toEqual({
      name: 'The name must not be greater than 255 characters.',
    });
  });
});
