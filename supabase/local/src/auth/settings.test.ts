import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { loadAuthSettings } from './settings.ts';

const stack = loadConfig({ gatewayPort: 54321 });

describe('loadAuthSettings', () => {
  it('reads the project config.toml the way the Supabase CLI maps it onto GoTrue', () => {
    const settings = loadAuthSettings(stack);
    expect(settings).toMatchObject({
      externalUrl: 'http://127.0.0.1:54321/auth/v1',
      jwtIssuer: 'http://127.0.0.1:54321/auth/v1',
      siteUrl: 'http://localhost:5173',
      mailerAutoconfirm: false,
      secureEmailChange: true,
      minPasswordLength: 6,
      refreshTokenReuseIntervalSeconds: 10,
      emailMaxFrequencyMs: 1000,
      otpExpirySeconds: 3600,
      mfa: { totpEnrollEnabled: true, totpVerifyEnabled: true, maxEnrolledFactors: 10 },
    });
    expect(settings.additionalRedirectUrls).toContain('http://localhost:5174');
  });

  it('maps password_requirements and falls back to GoTrue defaults', () => {
    const settings = loadAuthSettings(
      stack,
      {},
      {
        auth: { password_requirements: 'lower_upper_letters_digits', email: {} },
      },
    );
    expect(settings.passwordRequiredCharacters).toEqual([
      'abcdefghijklmnopqrstuvwxyz',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
      '0123456789',
    ]);
    expect(settings.mailerAutoconfirm).toBe(true);
    expect(settings.mfa.totpEnrollEnabled).toBe(false);
  });

  it('names the setting that is wrong', () => {
    expect(() => loadAuthSettings(stack, {}, { auth: { minimum_password_length: 'six' } })).toThrow(
      'supabase/config.toml: [auth] minimum_password_length must be a whole number',
    );
    expect(() =>
      loadAuthSettings(stack, {}, { auth: { email: { max_frequency: 'soon' } } }),
    ).toThrow(/\[auth.email\] max_frequency must be a duration/);
    expect(() =>
      loadAuthSettings(stack, {}, { auth: { password_requirements: 'strong' } }),
    ).toThrow(/password_requirements must be one of/);
  });
});
