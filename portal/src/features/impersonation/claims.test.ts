import { describe, expect, it } from 'vitest';
import { impersonationOf, tokenFromFragment } from './claims.ts';
import { fakeToken, impersonationToken, staffToken } from './testTokens.ts';

describe('impersonationOf', () => {
  it('reads the impersonator, the audit row, the user and the expiry', () => {
    const token = impersonationToken({ exp: 1_900_000_000 });
    expect(impersonationOf(token)).toEqual({
      impersonator: 'staff-1',
      impersonationId: 42,
      userId: 'user-1',
      expiresAt: 1_900_000_000,
    });
  });

  it('answers null for an ordinary session and for anything that is not a token', () => {
    expect(impersonationOf(staffToken())).toBeNull();
    expect(impersonationOf(fakeToken({ sub: 'u', exp: 1, impersonator: 7 }))).toBeNull();
    for (const value of [null, undefined, '', 'not-a-token', 'a.%%%.c']) {
      expect(impersonationOf(value)).toBeNull();
    }
  });
});

describe('tokenFromFragment', () => {
  it('takes the token from the fragment the kiosk builds', () => {
    expect(tokenFromFragment('#impersonation_token=a.b.c')).toBe('a.b.c');
    expect(tokenFromFragment('#access_token=a.b.c')).toBeNull();
    expect(tokenFromFragment('#impersonation_token=abc')).toBeNull();
    expect(tokenFromFragment('')).toBeNull();
  });
});
