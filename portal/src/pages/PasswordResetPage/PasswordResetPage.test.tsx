import { screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AuthContext, useAuth } from '../../auth/AuthContext.ts';
import { testUser } from '../../test/auth.tsx';
import { json, TestBackend } from '../../test/backend.ts';
import { currentUrl, render, renderApp } from '../../test/render.tsx';
import { createTestServices, sessionBody, startSession } from '../../test/services.ts';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import PasswordResetPage, { INVALID_RESET_LINK } from './PasswordResetPage.tsx';

const AUTH_API_VERSION = { 'x-supabase-api-version': '2024-01-01' };
const ADA = { id: TEST_USER_ID, email: 'ada@example.com' };

/** The signed-in recovery session an e-mail link leaves (the real provider's passwordRecovery). */
function RecoverySession({ children }: { children: ReactNode }) {
  const auth = useAuth();
  return (
    <AuthContext
      value={{ ...auth, status: 'signedIn', user: testUser(ADA.email), passwordRecovery: true }}
    >
      {children}
    </AuthContext>
  );
}

async function choose(
  user: ReturnType<typeof render>['user'],
  password: string,
  confirmation = password,
) {
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('PasswordResetPage', () => {
  it("checks the new password by the spec's rule and the confirmation", async () => {
    const { user, backend } = renderApp({ route: '/app/password/reset/hash-123' });
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' });
    await choose(user, 'five5', 'other');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'The password must be at least 6 characters',
    );
    expect(screen.getByLabelText('New password')).toHaveFocus();
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      'The password confirmation does not match.',
    );
    expect(backend.requestsTo('POST', '/auth/v1/verify')).toHaveLength(0);
  });

  it('redeems a token from the link only when the form is sent, sets the password and goes home signed in', async () => {
    const backend = new TestBackend()
      .on('POST', '/auth/v1/verify', () => json(sessionBody(ADA)))
      .on('PUT', '/auth/v1/user', () => json(sessionBody(ADA).user));
    const { user, router } = renderApp({ route: '/app/password/reset/hash-123', backend });
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' });
    expect(backend.requestsTo('POST', '/auth/v1/verify')).toHaveLength(0);

    await choose(user, 'new-secret');
    await waitFor(() => expect(currentUrl(router)).toBe('/app'));
    const [verify] = backend.requestsTo('POST', '/auth/v1/verify');
    expect(await verify!.json()).toMatchObject({ type: 'recovery', token_hash: 'hash-123' });
    const [update] = backend.requestsTo('PUT', '/auth/v1/user');
    expect(await update!.json()).toMatchObject({ password: 'new-secret' });
    expect(update!.headers.get('authorization')).toMatch(/^Bearer /);
    expect(window.localStorage.getItem('stateStatus')).toBe('true');
  });

  it('says a refused token is invalid or expired and offers a new link', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/verify', () =>
      json(
        { code: 'otp_expired', msg: 'Token has expired or is invalid' },
        { status: 403, headers: AUTH_API_VERSION },
      ),
    );
    const { user } = renderApp({ route: '/app/password/reset/old-hash', backend });
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' });
    await choose(user, 'new-secret');
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID_RESET_LINK);
    expect(screen.getByRole('link', { name: 'Send me a new link' })).toHaveAttribute(
      'href',
      '/app/password/reset',
    );
    expect(backend.requestsTo('PUT', '/auth/v1/user')).toHaveLength(0);
  });

  it('says a mail link that came back without a session (expired) cannot be used, and takes the flash error', async () => {
    const backend = new TestBackend();
    const testServices = createTestServices(backend);
    testServices.services.flash.push({
      type: 'error',
      message: 'Email link is invalid or has expired',
    });
    renderApp({ route: '/app/password/reset/email-link', backend, testServices });
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID_RESET_LINK);
    await waitFor(() => expect(testServices.services.flash.getSnapshot()).toEqual([]));
  });

  it('sends a signed-in user who did not come through a reset link to the homepage', async () => {
    const { router } = renderApp({ route: '/app/password/reset/hash-123', world: signedInWorld() });
    await waitFor(() => expect(currentUrl(router)).toBe('/app'));
  });

  it('with the recovery session of a mail link, only sets the password; a refused one is said under the field', async () => {
    const backend = new TestBackend();
    const testServices = createTestServices(backend);
    await startSession(testServices, backend, ADA);
    let answers = 0;
    backend.on('PUT', '/auth/v1/user', () =>
      ++answers === 1
        ? json(
            {
              code: 'same_password',
              msg: 'New password should be different from the old password.',
            },
            { status: 422, headers: AUTH_API_VERSION },
          )
        : json(sessionBody(ADA).user),
    );
    const { user } = render(
      <RecoverySession>
        <Routes>
          <Route path="/app/password/reset/:token" element={<PasswordResetPage />} />
          <Route path="/app" element={<p>Homepage</p>} />
        </Routes>
      </RecoverySession>,
      { route: '/app/password/reset/email-link', backend, testServices },
    );
    await choose(user, 'old-secret');
    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
        'New password should be different from the old password.',
      ),
    );
    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Confirm new password'));
    await choose(user, 'new-secret');
    expect(await screen.findByText('Homepage')).toBeInTheDocument();
    expect(backend.requestsTo('POST', '/auth/v1/verify')).toHaveLength(0);
    expect(backend.requestsTo('PUT', '/auth/v1/user')).toHaveLength(2);
  });
});
