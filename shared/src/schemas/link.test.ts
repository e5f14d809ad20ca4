import { describe, expect, it } from 'vitest';
import { bulkFormSchema, linkCreateSchema } from './link.ts';
import { firstErrorPerField } from './rules.ts';

const NOW = '2025-06-15T12:00:30Z';
const schema = linkCreateSchema({ now: NOW });

function errorsOf(input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : firstErrorPerField(result.error);
}

describe('link create schema (link-creation 3 and 5)', () => {
  it('normalizes a full form into what the API receives', () => {
    expect(
      schema.parse({
        url: ' https://example.com/page ',
        domain: 'short.test',
        alias: 'spring_2025',
        description: '  Launch page ',
        team: 'sales',
        tags: ['Big Deal', '', 'Q3'],
        anti_robot_token: 'token-123',
        expires_at: '2025-06-15T12:06',
      }),
    ).toEqual({
      url: 'https://example.com/page',
      domain: 'short.test',
      alias: 'spring_2025',
      description: 'Launch page',
      team: 'sales',
      tags: ['bigdeal', 'q3'],
      anti_robot_token: 'token-123',
      expires_at: '2025-06-15T12:06:00.000Z',
    });
  });

  it('fills the optional fields with null and tags with an empty list', () => {
    expect(schema.parse({ url: 'https://example.com', domain: 'short.test' })).toEqual({
      url: 'https://example.com',
      domain: 'short.test',
      alias: null,
      description: null,
      team: null,
      tags: [],
      anti_robot_token: null,
      expires_at: null,
    });
  });

  it("requires the URL: 'The URL field is required.'", () => {
    expect(errorsOf({ domain: 'short.test' })).toEqual({ url: 'The URL field is required.' });
    expect(errorsOf({ url: '  ', domain: 'short.test' })).toEqual({
      url: 'The URL field is required.',
    });
    expect(errorsOf({ url: 'example', domain: 'short.test' })).toEqual({
      url: 'The url must be a valid URL.',
    });
  });

  it('checks the alias format and the domain', () => {
    expect(errorsOf({ url: 'https://a.test', domain: '', alias: 'no spaces' })).toEqual({
      domain: 'The domain field is required.',
      alias: 'The alias may only contain letters, numbers, dashes and underscores.',
    });
  });

  it('puts tag errors on tags.N: 1 and 46 characters refused, 2 and 45 accepted, duplicates taken', () => {
    expect(
      errorsOf({
        url: 'https://a.test',
        domain: 'short.test',
        tags: ['ab', 'c', 'x'.repeat(45), 'y'.repeat(46), 'AB'],
      }),
    ).toEqual({
      'tags.1': 'The tag must be at least 2 characters.',
      'tags.3': 'The tag must not be greater than 45 characters.',
      'tags.4': 'The tag has already been taken.',
    });
  });

  it('refuses an expiry 4 minutes ahead and accepts 6; refuses beyond 5 years', () => {
    const base = { url: 'https://a.test', domain: 'short.test' };
    expect(errorsOf({ ...base, expires_at: '2025-06-15T12:04:30Z' })).toEqual({
      expires_at: 'The expiry must be at least 5 minutes from now.',
    });
    expect(schema.parse({ ...base, expires_at: '2025-06-15T12:06:30Z' }).expires_at).toBe(
      '2025-06-15T12:06:30.000Z',
    );
    expect(errorsOf({ ...base, expires_at: '2030-06-16T00:00' })).toEqual({
      expires_at: 'The expiry must be within 5 years.',
    });
    expect(errorsOf({ ...base, expires_at: '2025-02-30T10:00' })).toEqual({
      expires_at: 'The expiry is not a valid date.',
    });
  });
});

describe('bulk form schema (link-creation 3, 5 and 9)', () => {
  const file = { name: 'links.csv', size: 2048, type: 'text/csv' };

  it('defaults withHeader to true and reads multipart booleans', () => {
    expect(bulkFormSchema.parse({ file, domain: 'short.test' })).toEqual({
      file,
      domain: 'short.test',
      team: null,
      withHeader: true,
    });
    expect(
      bulkFormSchema.parse({ file, domain: 'short.test', withHeader: 'false' }).withHeader,
    ).toBe(false);
  });

  it('refuses other file types, files over 10MB and a missing file', () => {
    const errors = (input: unknown) => {
      const result = bulkFormSchema.safeParse(input);
      return result.success ? {} : firstErrorPerField(result.error);
    };
    expect(errors({ file: { ...file, name: 'links.pdf' }, domain: 'short.test' })).toEqual({
      file: 'The file must be a file of type: csv, xls, xlsx, ods.',
    });
    expect(errors({ file: { ...file, size: 10 * 1024 * 1024 + 1 }, domain: 'short.test' })).toEqual(
      {
        file: 'The file must not be greater than 10240 kilobytes.',
      },
    );
    expect(errors({ file: { ...file, size: 10 * 1024 * 1024 }, domain: 'short.test' })).toEqual({});
    expect(errors({ domain: 'short.test' })).toEqual({ file: 'The file field is required.' });
  });
});
