import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { isRedirectUrlValid, referrerOf } from './redirects.ts';
import { loadAuthSettings } from './settings.ts';

const settings = loadAuthSettings(loadConfig(), {
  siteUrl: 'http://localhost:5173',
  additionalRedirectUrls: ['https://app.example.com/**', 'https://*.preview.example.com/callback'],
});

describe('isRedirectUrlValid', () => {
  it.each([
    'http://localhost:5173/welcome',
    'http://localhost:3000/other-port-on-localhost',
    'http://127.0.0.1:9999/loopback',
    'https://app.example.com/deep/path?x=1',
    'https://pr-12.preview.example.com/callback',
  ])('allows %s', (url) => {
    expect(isRedirectUrlValid(settings, url)).toBe(true);
  });

  it.each([
    'https://evil.example.net/',
    'https://a.b.preview.example.com/callback',
    'http://2130706433/decimal-ip',
    'http://0x7f000001/hex-ip',
    'http://10.0.0.1/private-ip',
    'not a url',
    '',
  ])('refuses %j', (url) => {
    expect(isRedirectUrlValid(settings, url)).toBe(false);
  });
});

describe('referrerOf', () => {
  it('takes an allowed redirect_to, else the site URL', () => {
    const ok = new Request('http://gw/auth/v1/signup?redirect_to=http://localhost:5173/x');
    expect(referrerOf(ok, settings)).toBe('http://localhost:5173/x');
    const evil = new Request('http://gw/auth/v1/signup?redirect_to=https://evil.example.net');
    expect(referrerOf(evil, settings)).toBe('http://localhost:5173');
  });
});
