import { describe, expect, it } from 'vitest';
import { loginPathFor, safeReturnPath } from './paths.ts';

describe('loginPathFor', () => {
  it('puts the target, encoded, in the "to" parameter', () => {
    expect(loginPathFor('/app')).toBe('/app/login?to=%2Fapp');
    expect(loginPathFor('/app/settings?tab=api')).toBe(
      '/app/login?to=%2Fapp%2Fsettings%3Ftab%3Dapi',
    );
  });
});

describe('safeReturnPath', () => {
  it.each(['/app', '/app/', '/app/settings/profile', '/app?coupon=BF24', '/app#top'])(
    'keeps the in-app path %s',
    (path) => expect(safeReturnPath(path)).toBe(path),
  );

  it.each([
    null,
    '',
    'https://evil.example/app',
    '//evil.example',
    '/app//evil.example',
    '/\\evil.example',
    '/app\\..\\x',
    '/application',
    '/pricing',
    'app/settings',
    '/app/login',
    '/app/login/?to=%2Fapp',
    '/app/x y',
  ])('refuses %s', (path) => expect(safeReturnPath(path)).toBeNull());
});
