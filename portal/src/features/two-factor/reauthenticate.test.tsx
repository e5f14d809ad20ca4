import { TOTP_CODE_FORMAT } from '@shortlane/shared/schemas/two-factor.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { assuranceLevel } from './assurance.ts';
import { WRONG_PASSWORD } from '../../auth/reauthenticate.ts';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { createTestServices } from '../../test/services.ts';
import { goTrueError, scriptTotpVerify, sessionWith, verifiedFactor } from './testing.ts';
import { MESSAGES_2FA } from './twoFactorApi.ts';
import { findLoadedDialog } from '../../test/dialogs.ts';

/**
 * 423 with two-factor on: the confirm-password modal also asks for the code, and the retried
 * request carries an aal2 session again (app-shell 8; the session never drops to aal1).
 */
describe('password confirmation with two-factor on', { timeout: 20_000 }, () => {
  it('asks for the code too, refuses a wrong one, then retries with an aal2 session', async () => {
    const backend = new TestBackend();
    const testServices = createTestServices(backend);
    const { supabase } = testServices.services;
    const start = sessionWith('aal2', [verifiedFactor]);
    backend.on('GET', '/auth/v1/user', () => json(start.user));
    backend.on('POST', '/auth/v1/logout', () => new Response(null, { status: 204 }));
    await supabase.auth.setSession(start);
    const firstToken = start.access_token;

    backend.on('POST', '/auth/v1/token', async (request) => {
      const body = (await request.json()) as { password: string };
      if (body.password !== 'correct horse') {
        return goTrueError(400, 'invalid_credentials', 'Invalid login credentials');
      }
      return json(sessionWith('aal1', [verifiedFactor]));
    });
    let verifiedTokens: string[] = [];
    scriptTotpVerify(backend, (code) => code === '112233');
    backend.on('POST', '/rest/v1/rpc/delete_account', (request) => {
      const token = request.headers.get('authorization')?.replace('Bearer ', '') ?? '';
      verifiedTokens = [...verifiedTokens, token];
      if (token === firstToken) {
        return json({ message: 'Password confirmation required.' }, { status: 423 });
      }
      return json({ deleted: true });
    });

    const { user } = render(<p>page</p>, { backend, testServices });
    const pending = supabase.rpc('delete_account' as never, {} as never).then((result) => result);
    const dialog = await findLoadedDialog('Confirm your password');
    const password = within(dialog).getByLabelText('Password');
    const code = within(dialog).getByLabelText('Authentication code');
    const confirm = within(dialog).getByRole('button', { name: 'Confirm' });

    await user.type(password, 'wrong');
    await user.type(code, '112233');
    await user.click(confirm);
    expect(await within(dialog).findByText(WRONG_PASSWORD)).toBeVisible();

    await user.clear(password);
    await user.type(password, 'correct horse');
    await user.clear(code);
    await user.type(code, '12');
    await user.click(confirm);
    expect(await within(dialog).findByText(TOTP_CODE_FORMAT)).toBeVisible();

    await user.clear(code);
    await user.type(code, '999999');
    await user.click(confirm);
    expect(await within(dialog).findByText(MESSAGES_2FA.wrongCode)).toBeVisible();

    await user.clear(code);
    await user.type(code, '112233');
    await user.click(confirm);
    const { data, error } = await pending;
    expect(error).toBeNull();
    expect(data).toEqual({ deleted: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const session = (await supabase.auth.getSession()).data.session!;
    expect(assuranceLevel(session.access_token)).toBe('aal2');
    expect(verifiedTokens).toEqual([firstToken, session.access_token]);
    // The replaced session is ended at Auth, and only that one.
    const logouts = backend.requestsTo('POST', '/auth/v1/logout');
    expect(logouts.map((request) => request.headers.get('authorization'))).toEqual([
      `Bearer ${firstToken}`,
    ]);
    expect(new URL(logouts[0]!.url).searchParams.get('scope')).toBe('local');
  });
});
