import { afterEach, describe, expect, it, vi } from 'vitest';
import { KIOSK_MESSAGES } from '../i18n/messages.ts';
import { kioskI18nProvider } from './i18nProvider.ts';

/** Polyglot reports a missing key through the `warning` package: console.error. */
function consoleComplaints() {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  return () => [...warn.mock.calls, ...error.mock.calls].map((call) => String(call[0]));
}

describe('kiosk i18n provider', () => {
  afterEach(() => vi.restoreAllMocks());

  it('translates every kiosk message without polyglot warning of a missing key', () => {
    const complaints = consoleComplaints();
    const { translate } = kioskI18nProvider();
    expect(translate('kiosk.users.impersonating', { email: 'ada@example.com' })).toBe(
      'The portal opened as ada@example.com',
    );
    expect(translate('kiosk.users.mfa_reset', { smart_count: 1 })).toBe(
      'Two-factor authentication reset (1 factor removed)',
    );
    expect(translate('kiosk.zones.synced', { smart_count: 3 })).toBe('3 zones synced');
    expect(translate('kiosk.notice.failed', { message: 'User not found' })).toBe('User not found');
    for (const key of Object.keys(KIOSK_MESSAGES)) translate(key, { smart_count: 2 });
    expect(complaints()).toEqual([]);
  });

  it('keeps react-admin’s and ra-supabase’s own messages', () => {
    const { translate } = kioskI18nProvider();
    expect(translate('ra.boolean.true')).toBe('Yes');
    expect(translate('ra.boolean.false')).toBe('No');
    expect(translate('ra.auth.sign_in')).toBe('Sign in');
  });

  it('a text that is not a key is what polyglot warns about (the fault this avoids)', () => {
    const complaints = consoleComplaints();
    kioskI18nProvider().translate('The portal opened as ada@example.com');
    expect(complaints()).toEqual([expect.stringContaining('Missing translation for key')]);
  });
});
