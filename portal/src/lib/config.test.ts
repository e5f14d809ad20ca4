import { describe, expect, it } from 'vitest';
import {
  readPortalConfig,
  SANDBOX_HCAPTCHA_SITEKEY,
  SANDBOX_PADDLE_CLIENT_TOKEN,
} from './config.ts';

const SUPABASE = 'http://127.0.0.1:54321';

describe('readPortalConfig', () => {
  it('works on the local stack without any setting: the hCaptcha sandbox, ads on, en', () => {
    const config = readPortalConfig({}, SUPABASE);
    expect(config.antiRobot).toEqual({
      provider: 'sandbox',
      siteKey: SANDBOX_HCAPTCHA_SITEKEY,
      sandboxUrl: 'http://127.0.0.1:54321/sandbox/hcaptcha',
    });
    expect(config.adsEnabled).toBe(true);
    expect(config.locale).toBe('en');
    expect(config.kioskUrl).toBeNull();
    // No short URL base: production's https on the bare domain.
    expect(config.shortUrlBase).toEqual({ scheme: 'https', port: null });
  });

  it('uses real hCaptcha with a real sitekey, and reads the other settings', () => {
    const config = readPortalConfig(
      {
        VITE_HCAPTCHA_SITEKEY: 'real-key',
        VITE_ADS_ENABLED: 'false',
        VITE_KIOSK_URL: 'https://kiosk.example/',
        VITE_BLOG_URL: 'https://blog.example/',
        VITE_SHORT_URL_BASE: 'http://{domain}:25321',
      },
      SUPABASE,
    );
    expect(config.antiRobot).toEqual({ provider: 'hcaptcha', siteKey: 'real-key' });
    expect(config.adsEnabled).toBe(false);
    expect(config.kioskUrl).toBe('https://kiosk.example/');
    expect(config.externalUrls.blog).toBe('https://blog.example/');
    expect(config.shortUrlBase).toEqual({ scheme: 'http', port: 25321 });
  });

  it("opens Paddle checkouts in the local stack's sandbox unless a client-side token is set", () => {
    expect(readPortalConfig({}, SUPABASE).paddle).toEqual({
      environment: 'sandbox',
      token: SANDBOX_PADDLE_CLIENT_TOKEN,
      scriptUrl: 'http://127.0.0.1:54321/sandbox/paddle/paddle.js',
    });
    expect(readPortalConfig({ VITE_PADDLE_CLIENT_TOKEN: 'live_abc' }, SUPABASE).paddle).toEqual({
      environment: 'production',
      token: 'live_abc',
      scriptUrl: null,
    });
    expect(
      readPortalConfig({ VITE_PADDLE_CLIENT_TOKEN: 'test_abc' }, SUPABASE).paddle.environment,
    ).toBe('sandbox');
    expect(() =>
      readPortalConfig(
        { VITE_PADDLE_CLIENT_TOKEN: 'x', VITE_PADDLE_ENVIRONMENT: 'staging' },
        SUPABASE,
      ),
    ).toThrow('VITE_PADDLE_ENVIRONMENT must be sandbox or production, got "staging".');
  });

  it('moves the sale calendar by VITE_SALE_CALENDAR, else keeps the spec dates', () => {
    expect(readPortalConfig({}, SUPABASE).saleCalendar[0]?.startsAt).toEqual(
      new Date('2024-11-18T00:00:00Z'),
    );
    const moved = readPortalConfig(
      { VITE_SALE_CALENDAR: '{"preSaleStartsAt":"2024-11-11T00:00:00Z"}' },
      SUPABASE,
    );
    expect(moved.saleCalendar[0]?.startsAt).toEqual(new Date('2024-11-11T00:00:00Z'));
    expect(() => readPortalConfig({ VITE_SALE_CALENDAR: '{' }, SUPABASE)).toThrow(
      'VITE_SALE_CALENDAR must be a JSON object of sale dates, got "{".',
    );
  });

  it('names a malformed setting', () => {
    expect(() => readPortalConfig({ VITE_ADS_ENABLED: 'maybe' }, SUPABASE)).toThrow(
      'VITE_ADS_ENABLED must be true or false, got "maybe".',
    );
    expect(() => readPortalConfig({ VITE_KIOSK_URL: 'kiosk' }, SUPABASE)).toThrow(
      'VITE_KIOSK_URL must be an http(s) URL, got "kiosk".',
    );
    expect(() =>
      readPortalConfig({ VITE_SHORT_URL_BASE: 'http://shrt.localhost:54321' }, SUPABASE),
    ).toThrow(
      'VITE_SHORT_URL_BASE must look like https://{domain} or http://{domain}:54321, got "http://shrt.localhost:54321".',
    );
  });
});
