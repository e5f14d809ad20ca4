import { describe, expect, it } from 'vitest';
import { readAuthRedirect } from './authRedirect.ts';

describe('readAuthRedirect', () => {
  it('reads the verification type of a session Auth put in the fragment', () => {
    expect(
      readAuthRedirect(
        'http://portal.test/app/password/reset/email-link#access_token=a&expires_in=3600&refresh_token=r&token_type=bearer&type=recovery',
      ),
    ).toEqual({ type: 'recovery' });
    expect(
      readAuthRedirect(
        'http://portal.test/app/email/verify#access_token=a&refresh_token=r&type=signup',
      ),
    ).toEqual({ type: 'signup' });
  });

  it('finds nothing in an address without a session', () => {
    expect(readAuthRedirect('http://portal.test/app')).toBeNull();
    expect(
      readAuthRedirect(
        'http://portal.test/app/email/verify#error=access_denied&error_code=otp_expired',
      ),
    ).toBeNull();
    expect(readAuthRedirect('http://portal.test/app?access_token=a&refresh_token=r')).toBeNull();
  });
});
