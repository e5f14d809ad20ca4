import { describe, expect, it } from 'vitest';
import { firstErrorPerField } from './rules.ts';
import { utmPresetSchema } from './utm-preset.ts';

function errorsOf(input: unknown): Record<string, string> {
  const result = utmPresetSchema.safeParse(input);
  return result.success ? {} : firstErrorPerField(result.error);
}

describe('UTM preset schema (link-creation 3 and 5)', () => {
  it('accepts a preset and turns empty optional fields into null', () => {
    expect(
      utmPresetSchema.parse({
        name: 'Newsletter',
        utm_source: 'news',
        utm_medium: 'email',
        utm_campaign: 'spring',
        utm_term: '',
      }),
    ).toEqual({
      name: 'Newsletter',
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_term: null,
      utm_content: null,
    });
  });

  it("uses the builder's messages", () => {
    expect(errorsOf({ utm_campaign: 'c'.repeat(151), utm_content: 'x'.repeat(101) })).toEqual({
      name: 'The name field is required.',
      utm_source: 'The utm source field is required.',
      utm_medium: 'The utm medium field is required.',
      utm_campaign: 'The utm campaign must not be greater than 150.',
      utm_content: 'The utm content must not be greater than 100.',
    });
  });
});
