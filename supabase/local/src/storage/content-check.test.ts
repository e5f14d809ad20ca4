import { describe, expect, it } from 'vitest';
import { requireSignature, signatureOf } from './content-check.ts';
import { StorageApiError } from './errors.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00', 'latin1');
const WEBP = Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1');
const AVIF = Buffer.from('\x00\x00\x00\x1cftypavif\x00\x00', 'latin1');
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');

async function* chunked(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

describe('signatureOf', () => {
  it.each([
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/jpg', JPEG],
    ['image/gif', GIF],
    ['image/webp', WEBP],
    ['image/avif', AVIF],
    ['IMAGE/PNG; charset=binary', PNG],
  ])('recognises %s by its first bytes, and nothing else as it', (type, bytes) => {
    const matches = signatureOf(type)!;
    expect(matches(bytes)).toBe(true);
    for (const other of [PNG, JPEG, GIF, WEBP, AVIF, HTML].filter((b) => b !== bytes)) {
      expect(matches(other)).toBe(false);
    }
  });

  it('has no signature for types that do not begin with one', () => {
    for (const type of ['image/svg+xml', 'text/csv', 'application/pdf', 'text/plain']) {
      expect(signatureOf(type)).toBeUndefined();
    }
  });
});

describe('requireSignature', () => {
  it('passes the bytes on unchanged once the head matches, even split a byte at a time', async () => {
    const file = Buffer.concat([PNG, Buffer.alloc(1000, 9)]);
    expect(await collect(requireSignature('image/png', chunked(file, 1)))).toEqual(file);
    expect(await collect(requireSignature('image/png', chunked(file, 64)))).toEqual(file);
  });

  it('refuses a head of another kind before handing on a byte', async () => {
    const handed: number[] = [];
    const attempt = async () => {
      for await (const chunk of requireSignature('image/png', chunked(HTML, 4))) {
        handed.push(chunk.byteLength);
      }
    };
    await expect(attempt()).rejects.toThrow(StorageApiError);
    await expect(attempt()).rejects.toMatchObject({
      statusCode: 415,
      code: 'InvalidMimeType',
      message: 'mime type image/png is not supported',
    });
    expect(handed).toEqual([]);
  });

  it('refuses files too short to show the signature, and empty ones', async () => {
    await expect(
      collect(requireSignature('image/jpeg', chunked(JPEG.subarray(0, 2), 1))),
    ).rejects.toMatchObject({ code: 'InvalidMimeType' });
    await expect(
      collect(requireSignature('image/gif', chunked(Buffer.alloc(0), 1))),
    ).rejects.toMatchObject({ code: 'InvalidMimeType' });
  });

  it('leaves types without a signature alone', async () => {
    expect(await collect(requireSignature('text/csv', chunked(HTML, 7)))).toEqual(HTML);
  });
});
