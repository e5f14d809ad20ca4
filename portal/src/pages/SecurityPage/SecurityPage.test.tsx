import { CURRENT_PASSWORD_REQUIRED } from '@shortlane/shared/schemas/two-factor.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  FACTOR_ID,
  goTrueError,
  mfaUser,
  scriptTotpVerify,
  sessionWith,
  verifiedFactor,
} from '../../features/two-factor/testing.ts';
import { MESSAGES_2FA } from '../../features/two-factor/twoFactorApi.ts';
import { WRONG_PASSWORD } from '../../auth/reauthenticate.ts';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { createTestServices } from '../../test/services.ts';
import SecurityPage from './SecurityPage.tsx';
import { findLoadedDialog } from '../../test/dialogs.ts';

const PASSWORD = 'correct horse';

/** A signed-in user (aal2 when 2FA is on), with Auth's password grant answering PASSWORD. */
async function securityPage(factors: unknown[]) {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  const session = sessionWith(factors.length > 0 ? 'aal2' : 'aal1', factors);
  backend.on('GET', '/auth/v1/user', () => json(session.user));
  const { error } = await testServices.services.supabase.auth.setSession(session);
  if (error) throw error;
  backend.on('POST', '/auth/v1/token', async (request) => {
    const body = (await request.json()) as { password?: string };
    if (body.password !== undefined && body.password !== PASSWORD) {
      return goTrueError(400, 'invalid_credentials', 'Invalid login credentials');
    }
    return json(sessionWith('aal1', factors));
  });
  backend.on('POST', '/auth/v1/logout', () => new Response(null, { status: 204 }));
  return render(<SecurityPage />, {
    route: '/app/settings/security',
    backend,
    testServices,
    world: { user: mfaUser },
  });
}

describe('SecurityPage: password', () => {
  it('checks the fields before anything is sent', async () => {
    const { user, backend } = await securityPage([]);
    const form = screen.getByRole('form', { name: 'Change password' });
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(
      CURRENT_PASSWORD_REQUIRED,
    );
    expect(screen.getByLabelText('Current password')).toHaveFocus();

    await user.type(screen.getByLabelText('Current password'), PASSWORD);
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'The password must be at least 6 characters',
    );
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'longer secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'longer secreT');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      'The password confirmation does not match.',
    );
    expect(backend.requestsTo('PUT', '/auth/v1/user')).toEqual([]);
    expect(backend.requestsTo('POST', '/auth/v1/token')).toEqual([]);
  }, 20_000);

  it('refuses a wrong current password, then changes it with the right one', async () => {
    const { user, backend } = await securityPage([]);
    const updates: unknown[] = [];
    backend.on('PUT', '/auth/v1/user', async (request) => {
      updates.push(await request.json());
      return json(sessionWith('aal1', []).user);
    });
    await user.type(screen.getByLabelText('Current password'), 'wrong one');
    await user.type(screen.getByLabelText('New password'), 'new secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'new secret');
    const submit = within(screen.getByRole('form', { name: 'Change password' })).getByRole(
      'button',
      { name: 'Change password' },
    );
    await user.click(submit);
    await waitFor(() =>
      expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(WRONG_PASSWORD),
    );
    expect(updates).toEqual([]);

    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), PASSWORD);
    await user.click(submit);
    expect(await screen.findByText('Your password has been changed.')).toBeVisible();
    expect(updates).toEqual([expect.objectContaining({ password: 'new secret' })]);
    // The check signed in aside and ended only that session.
    const logouts = backend.requestsTo('POST', '/auth/v1/logout');
    expect(logouts.map((request) => new URL(request.url).searchParams.get('scope'))).toEqual([
      'local',
    ]);
  }, 20_000);
});

describe('SecurityPage: two-factor authentication', () => {
  it('enrolls with the QR code and secret, refuses a wrong code, then shows backup codes once', async () => {
    const { user, backend } = await securityPage([]);
    backend.on('POST', '/auth/v1/factors', () =>
      json({
        id: FACTOR_ID,
        type: 'totp',
        friendly_name: 'Authenticator app',
        totp: {
          qr_code: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
          secret: 'JBSWY3DPEHPK3PXP',
          uri: 'otpauth://totp/Shortlane:ada@example.com?secret=JBSWY3DPEHPK3PXP',
        },
      }),
    );
    scriptTotpVerify(backend, (code) => code === '112233');
    const codes = Array.from({ length: 10 }, (_, index) => `ABCDE-2345${index}`);
    backend.on('POST', '/rest/v1/rpc/generate_two_factor_backup_codes', () => json(codes));
    backend.on('POST', '/rest/v1/rpc/two_factor_backup_codes_remaining', () => json(10));

    await user.click(
      await screen.findByRole('button', { name: 'Turn on two-factor authentication' }),
    );
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeVisible();
    expect(
      screen.getByRole('img', { name: 'QR code to add Shortlane to your authenticator app' }),
    ).toBeVisible();

    const field = screen.getByLabelText('Confirmation code');
    await user.type(field, '999999');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(MESSAGES_2FA.wrongCode));

    await user.clear(field);
    await user.type(field, '112233');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Backup codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(screen.getByText('Save your backup codes now')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(screen.queryByRole('list', { name: 'Backup codes' })).not.toBeInTheDocument();
    expect(await screen.findByText('10 unused backup codes left.')).toBeVisible();
  }, 20_000);

  it('turns off only after the password is confirmed', async () => {
    const { user, backend } = await securityPage([verifiedFactor]);
    backend.on('POST', '/rest/v1/rpc/two_factor_backup_codes_remaining', () => json(3));
    const deletions: string[] = [];
    backend.on('DELETE', `/auth/v1/factors/${FACTOR_ID}`, (request) => {
      deletions.push(request.url);
      const off = sessionWith('aal2', []);
      backend.on('GET', '/auth/v1/user', () => json(off.user));
      backend.on('POST', '/auth/v1/token', () => json(off));
      return json({ id: FACTOR_ID });
    });

    expect(await screen.findByText('3 unused backup codes left.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor authentication' }));
    const dialog = await findLoadedDialog('Confirm your password');
    await user.type(within(dialog).getByLabelText('Password'), 'wrong one');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(WRONG_PASSWORD)).toBeVisible();
    expect(deletions).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByRole('button', { name: 'Turn on two-factor authentication' }),
    ).toBeVisible();
    expect(deletions).toHaveLength(1);
  }, 20_000);
});
