import { describe, expect, it } from 'vitest';
import { fileExtension, validateBulkFile, validateProfilePhoto } from './files.ts';

const MB = 1024 * 1024;

describe('profile photo (app-shell 5)', () => {
  it('accepts png and jpg only', () => {
    expect(validateProfilePhoto({ name: 'me.png', size: 1000, type: 'image/png' })).toBeNull();
    expect(validateProfilePhoto({ name: 'me.JPG', size: 1000, type: 'image/jpeg' })).toBeNull();
    expect(validateProfilePhoto({ name: 'me.jpeg', size: 1000, type: '' })).toBeNull();
    expect(validateProfilePhoto({ name: 'me.gif', size: 1000, type: 'image/gif' })).toBe(
      'The photo must be a file of type: png, jpg.',
    );
    expect(validateProfilePhoto({ name: 'me.png', size: 1000, type: 'image/svg+xml' })).toBe(
      'The photo must be a file of type: png, jpg.',
    );
  });
});

describe('bulk file (link-creation 5 and 9)', () => {
  it('accepts csv, xls, xlsx and ods', () => {
    for (const name of ['links.csv', 'links.xls', 'links.XLSX', 'links.ods']) {
      expect(validateBulkFile({ name, size: 10, type: '' }), name).toBeNull();
    }
    expect(validateBulkFile({ name: 'links.txt', size: 10, type: 'text/plain' })).toBe(
      'The file must be a file of type: csv, xls, xlsx, ods.',
    );
  });

  it('accepts exactly 10MB and refuses one byte more', () => {
    expect(validateBulkFile({ name: 'a.csv', size: 10 * MB, type: 'text/csv' })).toBeNull();
    expect(validateBulkFile({ name: 'a.csv', size: 10 * MB + 1, type: 'text/csv' })).toBe(
      'The file must not be greater than 10240 kilobytes.',
    );
  });

  it('requires a file', () => {
    expect(validateBulkFile(null)).toBe('The file field is required.');
    expect(validateBulkFile({ name: '', size: 0, type: '' })).toBe('The file field is required.');
  });

  it('reads the extension after the last dot', () => {
    expect(fileExtension('archive.tar.CSV')).toBe('csv');
    expect(fileExtension('README')).toBe('');
  });
});
