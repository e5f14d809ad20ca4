import { describe, expect, it } from 'vitest';
import { QUOTE_MESSAGES, quoteRequestSchema } from './quote.ts';
import { firstErrorPerField } from './rules.ts';

const valid = {
  name: ' Grace Hopper ',
  email: 'grace@navy.test',
  company: '  ',
  links_per_month: 50_000,
  team_size: 40,
  message: '  ',
};

const errorsOf = (input: unknown) => {
  const result = quoteRequestSchema.safeParse(input);
  return result.success ? {} : firstErrorPerField(result.error);
};

describe('quoteRequestSchema', () => {
  it('trims, and turns blank optional fields into null', () => {
    expect(quoteRequestSchema.parse(valid)).toEqual({
      ...valid,
      name: 'Grace Hopper',
      company: null,
      message: null,
    });
  });

  it.each([
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ email: 'grace@' }, 'email'],
    [{ email: `${'g'.repeat(250)}@x.io` }, 'email'],
    [{ company: 'c'.repeat(201) }, 'company'],
    [{ links_per_month: 0 }, 'links_per_month'],
    [{ links_per_month: 1.5 }, 'links_per_month'],
    [{ links_per_month: 1_000_000_001 }, 'links_per_month'],
    [{ team_size: 1_000_001 }, 'team_size'],
    [{ team_size: '' }, 'team_size'],
    [{ message: 'm'.repeat(5001) }, 'message'],
  ] as const)('refuses %o with the database’s sentence', (change, field) => {
    expect(errorsOf({ ...valid, ...change })).toEqual({ [field]: QUOTE_MESSAGES[field] });
  });

  it('takes the bounds themselves', () => {
    expect(
      errorsOf({ ...valid, links_per_month: 1_000_000_000, team_size: 1, name: 'x'.repeat(100) }),
    ).toEqual({});
  });
});
