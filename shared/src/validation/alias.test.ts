import { describe, expect, it } from 'vitest';
import { validateAlias } from './alias.ts';

describe('alias format', () => {
  it('accepts letters, numbers, dashes and underscores', () => {
    expect(validateAlias('Spring-Sale_2025')).toBeNull();
  });

  it('treats an empty alias as none', () => {
    expect(validateAlias('')).toBeNull();
    expect(validateAlias(null)).toBeNull();
    expect(validateAlias(undefined)).toBeNull();
  });

  it('refuses anything else', () => {
    for (const alias of ['with space', 'slash/path', 'dot.ted', 'ümlaut', 'emoji😀', 'a?b']) {
      expect(validateAlias(alias), alias).toBe(
        'The alias may only contain letters, numbers, dashes and underscores.',
      );
    }
  });
});
