import { describe, expect, it } from 'vitest';
import { validatePassword } from './password.ts';

describe('password (app-shell 5)', () => {
  it("refuses fewer than 6 characters: 'The password must be at least 6 characters'", () => {
    expect(validatePassword('12345')).toBe('The password must be at least 6 characters');
  });

  it('accepts 6 characters and more', () => {
    expect(validatePassword('123456')).toBeNull();
    expect(validatePassword('a much longer passphrase')).toBeNull();
  });

  it('requires a password', () => {
    expect(validatePassword('')).toBe('The password field is required.');
    expect(validatePassword(null)).toBe('The password field is required.');
  });
});
