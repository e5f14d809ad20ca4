import { describe, expect, it } from 'vitest';
import {
  normalizePixelId,
  parseLinkPixel,
  PIXEL_PROVIDER_INFO,
  PIXEL_PROVIDERS,
  pixelIdError,
} from './pixels.ts';

describe('pixel ids', () => {
  it('accepts each provider’s example and normalises as the database does', () => {
    for (const provider of PIXEL_PROVIDERS) {
      expect(pixelIdError(provider, PIXEL_PROVIDER_INFO[provider].example)).toBeNull();
    }
    expect(normalizePixelId('google_ads', ' aw-123456789 ')).toBe('AW-123456789');
    expect(normalizePixelId('tiktok', 'c4a1b2c3d4e5f6g7h8i9')).toBe('C4A1B2C3D4E5F6G7H8I9');
    expect(normalizePixelId('meta', ' 123456789012345\t')).toBe('123456789012345');
  });

  it('refuses other formats with the provider’s sentence', () => {
    expect(pixelIdError('meta', '1234')).toBe('A Meta pixel id is 15 or 16 digits.');
    expect(pixelIdError('meta', "123456789012345');alert(1)//")).not.toBeNull();
    expect(pixelIdError('google_ads', '123456789')).toMatch(/AW-/);
    expect(pixelIdError('linkedin', '12a4')).not.toBeNull();
    expect(pixelIdError('tiktok', 'C4A1B2C3D4E5F6G7H8I9<')).not.toBeNull();
  });

  it('keeps only valid pixels read from outside', () => {
    expect(parseLinkPixel({ provider: 'linkedin', id: '5123' })).toEqual({
      provider: 'linkedin',
      id: '5123',
    });
    expect(parseLinkPixel({ provider: 'linkedin', id: '5123"><script>' })).toBeNull();
    expect(parseLinkPixel({ provider: 'script', id: '5123' })).toBeNull();
    expect(parseLinkPixel(null)).toBeNull();
    expect(parseLinkPixel('meta')).toBeNull();
  });
});
