import { describe, expect, it } from 'vitest';
import { href, loginPathFor, paths, safeReturnPath } from './paths.ts';

describe('href', () => {
  it('gives the path of a route without parameters', () => {
    expect(href('homepage')).toBe('/app');
    expect(href('subscription.past_due')).toBe('/app/subscribe');
  });

  it('fills in parameters, URL-encoded', () => {
    expect(href('org.team', { org: 'acme', team: 'sales' })).toBe(
      '/app/organizations/acme/team/sales',
    );
    expect(href('settings.brandedDomains.edit', { domain: 'a/b c' })).toBe(
      '/app/settings/edit/a%2Fb%20c',
    );
  });

  it('leaves out missing optional parameters', () => {
    expect(href('email_verify')).toBe('/app/email/verify');
    expect(href('email_verify', { userId: 'u1' })).toBe('/app/email/verify/u1');
    expect(href('preview.deprecated', { alias: 'x', addPath: 'y' })).toBe(
      '/preview/deprecated/x/y',
    );
  });

  it('adds a query string, skipping empty values', () => {
    expect(href('register', null, { plan: 'pro', coupon: undefined })).toBe(
      '/app/register?plan=pro',
    );
  });

  it('refuses to build a path without a required parameter', () => {
    const untyped = href as (name: string, params: Record<string, string>) => string;
    expect(() => untyped('analytics', {})).toThrow('Route analytics needs the parameter "hash".');
  });

  it('keeps the spec paths of the named routes', () => {
    expect(paths.cookies).toBe('/app/cookies-policy');
    expect(paths.privacy).toBe('/app/privacy-policy');
    expect(paths['signup.pricing']).toBe('/app/pricing');
    expect(paths['kiosk.user.stopImpersonating']).toBe('/app/kiosk/user/stop-impersonating');
  });
});

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
