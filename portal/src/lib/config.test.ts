import { describe, expect, it } from 'vitest';
import { readPortalConfig, SANDBOX_HCAPTCHA_SITEKEY } from './config.ts';

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
  });

  it('uses real hCaptcha with a real sitekey, and reads the other settings', () => {
    const config = readPortalConfig(
      {
        VITE_HCAPTCHA_SITEKEY: 'real-key',
        VITE_ADS_ENABLED: 'false',
        VITE_KIOSK_URL: 'https://kiosk.example/',
        VITE_BLOG_URL: 'https://blog.example/',
      },
      SUPABASE,
    );
    expect(config.antiRobot).toEqual({ provider: 'hcaptcha', siteKey: 'real-key' });
    expect(config.adsEnabled).toBe(false);
    expect(config.kioskUrl).toBe('https://kiosk.example/');
    expect(config.externalUrls.blog).toBe('https://blog.example/');
  });

  it('names a malformed setting', () => {
    expect(() => readPortalConfig({ VITE_ADS_ENABLED: 'maybe' }, SUPABASE)).toThrow(
      'VITE_ADS_ENABLED must be true or false, got "maybe".',
    );
    expect(() => readPortalConfig({ VITE_KIOSK_URL: 'kiosk' }, SUPABASE)).toThrow(
      'VITE_KIOSK_URL must be an http(s) URL, got "kiosk".',
    );
  });
});
