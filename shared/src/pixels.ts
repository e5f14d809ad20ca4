/**
 * Retargeting pixels: a provider and the provider's id, never script. The formats are the
 * database's (app.pixel_id_valid in migration 20261122003200_pixels.sql, which refuses anything
 * else); the portal's form checks them as the user types, and the redirector checks them again
 * before it puts an id into a page.
 */

export const PIXEL_PROVIDERS = ['meta', 'google_ads', 'linkedin', 'tiktok'] as const;
export type PixelProvider = (typeof PIXEL_PROVIDERS)[number];

export interface PixelProviderInfo {
  /** The provider's name as people know it. */
  label: string;
  /** What the provider calls the id. */
  idLabel: string;
  pattern: RegExp;
  /** The sentence app.pixel_id_format answers when the format is wrong. */
  format: string;
  example: string;
}

export const PIXEL_PROVIDER_INFO: Readonly<Record<PixelProvider, PixelProviderInfo>> = {
  meta: {
    label: 'Meta (Facebook)',
    idLabel: 'Pixel ID',
    pattern: /^[0-9]{15,16}$/,
    format: 'A Meta pixel id is 15 or 16 digits.',
    example: '123456789012345',
  },
  google_ads: {
    label: 'Google Ads',
    idLabel: 'Conversion ID',
    pattern: /^AW-[0-9]{6,12}$/,
    format: 'A Google Ads conversion id is AW- and 6 to 12 digits, e.g. AW-123456789.',
    example: 'AW-123456789',
  },
  linkedin: {
    label: 'LinkedIn',
    idLabel: 'Partner ID',
    pattern: /^[0-9]{4,10}$/,
    format: 'A LinkedIn partner id is 4 to 10 digits.',
    example: '5123456',
  },
  tiktok: {
    label: 'TikTok',
    idLabel: 'Pixel code',
    pattern: /^[A-Z0-9]{20}$/,
    format: 'A TikTok pixel code is 20 capital letters and digits.',
    example: 'C4A1B2C3D4E5F6G7H8I9',
  },
};

/** A pixel as a link fires it (app.link_pixels' rows). */
export interface LinkPixel {
  provider: PixelProvider;
  id: string;
}

export function isPixelProvider(value: unknown): value is PixelProvider {
  return typeof value === 'string' && (PIXEL_PROVIDERS as readonly string[]).includes(value);
}

/** The id as the database stores it: trimmed, Google's prefix and TikTok's code in capitals. */
export function normalizePixelId(provider: PixelProvider, raw: string): string {
  const trimmed = raw.trim();
  return provider === 'google_ads' || provider === 'tiktok' ? trimmed.toUpperCase() : trimmed;
}

/** Null when the id has the provider's format, else the sentence saying what it looks like. */
export function pixelIdError(provider: PixelProvider, raw: string): string | null {
  const info = PIXEL_PROVIDER_INFO[provider];
  return info.pattern.test(normalizePixelId(provider, raw)) ? null : info.format;
}

/** A pixel read from outside (a cached row): kept only when provider and id are valid. */
export function parseLinkPixel(value: unknown): LinkPixel | null {
  if (typeof value !== 'object' || value === null) return null;
  const { provider, id } = value as { provider?: unknown; id?: unknown };
  if (!isPixelProvider(provider) || typeof id !== 'string') return null;
  return PIXEL_PROVIDER_INFO[provider].pattern.test(id) ? { provider, id } : null;
}
