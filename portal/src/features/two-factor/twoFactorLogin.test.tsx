import {
  BACKUP_CODE_FORMAT,
  TOTP_CODE_FORMAT,
  TOTP_CODE_REQUIRED,
} from '@shortlane/shared/schemas/two-factor.ts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { createTestServices } from '../../test/services.ts';
import { mfaUser, scriptTotpVerify, sessionWith, startPasswordOnlySession } from './testing.ts';
import { MESSAGES_2FA } from './twoFactorApi.ts';

/** The login's second step against the real supabase-js client and guards, Auth scripted. */
async function passwordOnly(route: string) {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  await startPasswordOnlySession(testServices, backend);
  return renderApp({ route, backend, testServices, world: { user: mfaUser } });
}

describe('login/2FA/verify', { timeout: 20_000 }, () => {
  it('holds a password-only session on the code page, remembering where it was going', async () => {
    const { router } = await passwordOnly('/app/notifications');
    await waitFor(() =>
      expect(currentUrl(router)).toBe('/app/login/2FA/verify?to=%2Fapp%2Fnotifications'),
    );
    expect(await screen.findByRole('form', { name: 'Two-factor verification' })).toBeVisible();
  });

  it('carries the login page’s own return path on', async () => {
    const { router } = await passwordOnly('/app/login?to=%2Fapp%2Fsettings%2Fprofile');
    await waitFor(() =>
      expect(currentUrl(router)).toBe('/app/login/2FA/verify?to=%2Fapp%2Fsettings%2Fprofile'),
    );
  });

  it('refuses an empty or malformed code without asking Auth', async () => {
    const { user, backend } = await passwordOnly('/app/login/2FA/verify');
    const field = await screen.findByLabelText('Authentication code');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(field).toHaveAccessibleDescription(TOTP_CODE_REQUIRED);
    expect(field).toHaveFocus();
    await user.type(field, '12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(field).toHaveAccessibleDescription(TOTP_CODE_FORMAT);
    await user.clear(field);
    await user.type(field, '12a456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(field).toHaveAccessibleDescription(TOTP_CODE_FORMAT);
    expect(backend.requests.filter((request) => request.url.includes('/factors/'))).toEqual([]);
  });

  it('says a wrong code is wrong, then moves on with the right one', async () => {
    const { user, backend, router } = await passwordOnly(
      '/app/login/2FA/verify?to=%2Fapp%2Fnotifications',
    );
    scriptTotpVerify(backend, (code) => code === '246810');
    const field = await screen.findByLabelText('Authentication code');
    await user.type(field, '135 791');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(MESSAGES_2FA.wrongCode));
    expect(field).toHaveFocus();

    await user.clear(field);
    await user.type(field, '246810');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/notifications'));
    const verifications = backend.requests.filter((request) => request.url.endsWith('/verify'));
    expect(verifications).toHaveLength(2);
  });

  it('links to the backup-code page with the same return path', async () => {
    const { user, router } = await passwordOnly('/app/login/2FA/verify?to=%2Fapp%2Fnotifications');
    await user.click(await screen.findByRole('link', { name: /Use a backup code/ }));
    await waitFor(() =>
      expect(currentUrl(router)).toBe('/app/login/2FA/backup_code?to=%2Fapp%2Fnotifications'),
    );
  });

  it('sends a guest to the login page and a fully signed-in user onwards', async () => {
    const guest = renderApp({ route: '/app/login/2FA/verify?to=%2Fapp%2Fnotifications' });
    await waitFor(() =>
      expect(currentUrl(guest.router)).toBe('/app/login?to=%2Fapp%2Fnotifications'),
    );
    guest.unmount();
    const signedIn = renderApp({
      route: '/app/login/2FA/backup_code?to=%2Fapp%2Fnotifications',
      world: { user: mfaUser },
    });
    await waitFor(() => expect(currentUrl(signedIn.router)).toBe('/app/notifications'));
  });
});

describe('login/2FA/backup_code', { timeout: 20_000 }, () => {
  const consumePath = '/rest/v1/rpc/consume_two_factor_backup_code';

  it('checks the format, then reports a wrong code with the attempts left', async () => {
    const { user, backend } = await passwordOnly('/app/login/2FA/backup_code');
    const bodies: unknown[] = [];
    backend.on('POST', consumePath, async (request) => {
      bodies.push(await request.json());
      return json({ consumed: false, attempts_left: 3 });
    });
    const field = await screen.findByLabelText('Backup code');
    await user.type(field, 'ABCDE-234');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(field).toHaveAccessibleDescription(BACKUP_CODE_FORMAT);
    expect(bodies).toEqual([]);

    await user.clear(field);
    await user.type(field, 'abcde 23456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(`${MESSAGES_2FA.wrongBackupCode} 3 attempts left.`),
    );
    expect(bodies).toEqual([{ p_code: 'ABCDE-23456' }]);
  });

  it('says so when too many wrong codes locked the account for a while', async () => {
    const { user, backend } = await passwordOnly('/app/login/2FA/backup_code');
    backend.on('POST', consumePath, () =>
      postgrestError(429, {
        message: 'too_many_attempts',
        details: 'Too many wrong codes. Try again in 15 minutes.',
        hint: 'code',
      }),
    );
    const field = await screen.findByLabelText('Backup code');
    await user.type(field, 'ABCDE-23456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(MESSAGES_2FA.tooManyAttempts));
    // The page says it; no global "something went wrong" notice on top.
    expect(screen.queryByText('Something went wrong.')).not.toBeInTheDocument();
  });

  it('a right code signs in without the factor and asks to enroll again', async () => {
    const { user, backend, router } = await passwordOnly('/app/login/2FA/backup_code');
    backend.on('POST', consumePath, () => {
      // The database removed the factor: Auth's next answers list none.
      const withoutFactor = sessionWith('aal1', []);
      backend.on('POST', '/auth/v1/token', () => json(withoutFactor));
      backend.on('GET', '/auth/v1/user', () => json(withoutFactor.user));
      return json({ consumed: true, attempts_left: 5 });
    });
    await user.type(await screen.findByLabelText('Backup code'), 'ABCDE-23456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/security?reenroll=1'));
    expect(await screen.findByText('Set up two-factor authentication again')).toBeVisible();
    expect(
      await screen.findByRole('button', { name: 'Turn on two-factor authentication' }),
    ).toBeVisible();
    expect(backend.requestsTo('POST', '/auth/v1/token')).toHaveLength(1);
  });
});
