import { describe, expect, it } from 'vitest';
import { StackError } from '../errors.ts';
import { parseApiFileSize, parseConfigSize, storageSettingsFrom } from './settings.ts';

describe('sizes', () => {
  it('reads config.toml sizes in binary units, as the Supabase CLI does', () => {
    expect(parseConfigSize('50MiB')).toBe(50 * 1024 * 1024);
    expect(parseConfigSize('2MB')).toBe(2 * 1024 * 1024);
    expect(parseConfigSize('512KiB')).toBe(512 * 1024);
    expect(parseConfigSize(1000)).toBe(1000);
    expect(parseConfigSize('lots')).toBeUndefined();
  });

  it('reads API sizes in decimal units, as Storage does', () => {
    expect(parseApiFileSize('100MB')).toBe(100_000_000);
    expect(parseApiFileSize('1.5kb')).toBe(1500);
    expect(parseApiFileSize(2048)).toBe(2048);
    expect(() => parseApiFileSize('2 MiB')).toThrow('Invalid file size format');
  });
});

describe('storageSettingsFrom', () => {
  it('takes the global limit and the declared buckets', () => {
    const settings = storageSettingsFrom({
      storage: {
        file_size_limit: '10MiB',
        buckets: {
          avatars: { public: true, file_size_limit: '1MiB', allowed_mime_types: ['image/png'] },
          exports: {},
        },
      },
    });
    expect(settings).toEqual({
      fileSizeLimit: 10 * 1024 * 1024,
      buckets: [
        {
          name: 'avatars',
          public: true,
          fileSizeLimit: 1024 * 1024,
          allowedMimeTypes: ['image/png'],
        },
        { name: 'exports', public: false, fileSizeLimit: null, allowedMimeTypes: null },
      ],
    });
  });

  it('refuses a bucket the Storage API would refuse, naming the setting', () => {
    const withBucket = (bucket: Record<string, unknown>) =>
      storageSettingsFrom({ storage: { file_size_limit: '1MiB', buckets: { files: bucket } } });
    expect(() => withBucket({ file_size_limit: '2MiB' })).toThrow(StackError);
    expect(() => withBucket({ file_size_limit: '2MiB' })).toThrow(
      '[storage.buckets.files] file_size_limit exceeds [storage] file_size_limit',
    );
    expect(() => withBucket({ allowed_mime_types: ['not a type'] })).toThrow('allowed_mime_types');
    expect(() => storageSettingsFrom({ storage: { buckets: { '..': {} } } })).toThrow(
      'not a valid bucket name',
    );
  });
});
