import { describe, expect, it } from 'vitest';
import { kioskAddress } from './kioskAddress.ts';

describe('kioskAddress', () => {
  it.each([
    ['/app/kiosk/users', '', 'https://kiosk.test/users'],
    ['/app/kiosk/user/6d0c', '', 'https://kiosk.test/user/6d0c'],
    ['/app/kiosk/alias/shrt.localhost/abc', '', 'https://kiosk.test/alias/shrt.localhost/abc'],
    [
      '/app/kiosk/stats/system',
      '?from=2026-01-01',
      'https://kiosk.test/stats/system?from=2026-01-01',
    ],
    ['/app/kiosk', '', 'https://kiosk.test/'],
  ])('%s%s → %s', (pathname, search, expected) => {
    expect(kioskAddress('https://kiosk.test/', pathname, search)).toBe(expected);
  });

  it('knows no address without the kiosk’s, or for a path outside the kiosk', () => {
    expect(kioskAddress(null, '/app/kiosk/users', '')).toBeNull();
    expect(kioskAddress('https://kiosk.test', '/app/kioskish', '')).toBeNull();
    expect(kioskAddress('https://kiosk.test', '/app/settings', '')).toBeNull();
  });
});
