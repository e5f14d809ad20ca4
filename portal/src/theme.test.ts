import { describe, expect, it } from 'vitest';
import { theme } from './theme.ts';

describe('theme', () => {
  it('uses the spec breakpoints (576, 768, 992, 1200 px) in em', () => {
    expect(theme.breakpoints).toEqual({
      xs: '0em',
      sm: '36em',
      md: '48em',
      lg: '62em',
      xl: '75em',
    });
  });
});
