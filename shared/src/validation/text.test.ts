import { describe, expect, it } from 'vitest';
import { characterCount } from './text.ts';

describe('character count', () => {
  it('counts code points, so an emoji is one character', () => {
    expect(characterCount('ab')).toBe(2);
    expect(characterCount('😀')).toBe(1);
    expect('😀'.length).toBe(2);
    expect(characterCount('')).toBe(0);
  });
});
