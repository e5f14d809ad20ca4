import { PHOTO_TYPE_ERROR } from '@shortlane/shared/validation/files.ts';
import { describe, expect, it } from 'vitest';
import { checkPhoto, PHOTO_MAX_BYTES, PHOTO_TOO_LARGE, sniffPhotoType } from './photoFile.ts';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0];

const file = (bytes: number[] | string, name: string, type: string, padTo = 0) => {
  const head = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : Uint8Array.from(bytes);
  const body = new Uint8Array(Math.max(padTo, head.length));
  body.set(head);
  return new File([body], name, { type });
};

describe('sniffPhotoType', () => {
  it('knows png and jpeg by their first bytes, and nothing else', () => {
    expect(sniffPhotoType(Uint8Array.from(PNG_HEAD))).toBe('image/png');
    expect(sniffPhotoType(Uint8Array.from(JPEG_HEAD))).toBe('image/jpeg');
    expect(sniffPhotoType(new TextEncoder().encode('hello there'))).toBeNull();
    expect(sniffPhotoType(Uint8Array.from([0x89, 0x50]))).toBeNull();
  });
});

describe('checkPhoto', () => {
  it('accepts a png and a jpg, typed by their content', async () => {
    const png = await checkPhoto(file(PNG_HEAD, 'me.png', 'image/png'));
    expect(png).toMatchObject({ ok: true, photo: { contentType: 'image/png', extension: 'png' } });
    const jpg = await checkPhoto(file(JPEG_HEAD, 'me.JPEG', 'image/jpeg'));
    expect(jpg).toMatchObject({ ok: true, photo: { contentType: 'image/jpeg', extension: 'jpg' } });
  });

  it('refuses other types by name or declared type', async () => {
    expect(await checkPhoto(file(PNG_HEAD, 'me.gif', 'image/gif'))).toEqual({
      ok: false,
      error: PHOTO_TYPE_ERROR,
    });
    expect(await checkPhoto(file(PNG_HEAD, 'me.png', 'application/pdf'))).toEqual({
      ok: false,
      error: PHOTO_TYPE_ERROR,
    });
  });

  it('refuses a text file named .jpg', async () => {
    expect(await checkPhoto(file('just some text', 'fake.jpg', 'image/jpeg'))).toEqual({
      ok: false,
      error: PHOTO_TYPE_ERROR,
    });
  });

  it('refuses a photo over 2 MB and accepts one of exactly 2 MB', async () => {
    expect(await checkPhoto(file(PNG_HEAD, 'big.png', 'image/png', PHOTO_MAX_BYTES + 1))).toEqual({
      ok: false,
      error: PHOTO_TOO_LARGE,
    });
    const exact = await checkPhoto(file(PNG_HEAD, 'ok.png', 'image/png', PHOTO_MAX_BYTES));
    expect(exact.ok).toBe(true);
  });
});
