import { describe, expect, it } from 'vitest';
import { fileMetaSchema, requiredFileMeta } from './files.ts';

describe('file metadata schema', () => {
  it('reads name, size and type, defaulting an unknown type to empty', () => {
    expect(fileMetaSchema.parse({ name: 'a.csv', size: 3 })).toEqual({
      name: 'a.csv',
      size: 3,
      type: '',
    });
  });

  it('refuses negative or fractional sizes', () => {
    expect(fileMetaSchema.safeParse({ name: 'a.csv', size: -1 }).success).toBe(false);
    expect(fileMetaSchema.safeParse({ name: 'a.csv', size: 1.5 }).success).toBe(false);
  });

  it('names a missing required file with the given message', () => {
    const schema = requiredFileMeta('The file field is required.');
    expect(schema.safeParse(undefined).error?.issues[0]?.message).toBe(
      'The file field is required.',
    );
    expect(schema.safeParse(null).error?.issues[0]?.message).toBe('The file field is required.');
  });
});
