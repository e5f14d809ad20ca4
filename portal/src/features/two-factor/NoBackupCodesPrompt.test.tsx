import type { Factor } from '@supabase/supabase-js';
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { testUser } from '../../test/auth.tsx';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { createTestServices } from '../../test/services.ts';
import { NO_BACKUP_CODES_DISMISSED_KEY, NoBackupCodesPrompt } from './NoBackupCodesPrompt.tsx';
import { mfaUser, sessionWith, verifiedFactor } from './testing.ts';
import { findLoadedDialog } from '../../test/dialogs.ts';

/** Signed in at aal2 with 2FA on and `left` unused backup codes. */
async function withCodesLeft(left: number, route = '/app') {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  const session = sessionWith('aal2', [verifiedFactor]);
  backend.on('GET', '/auth/v1/user', () => json(session.user));
  backend.on('POST', '/rest/v1/rpc/two_factor_backup_codes_remaining', () => json(left));
  await testServices.services.supabase.auth.setSession(session);
  return render(
    <>
      <NoBackupCodesPrompt />
      <Routes>
        <Route path="/app" element={<p>home</p>} />
        <Route path="/app/settings/security" element={<h1>Security page</h1>} />
      </Routes>
    </>,
    {
      route,
      backend,
      testServices,
      auth: {
        user: testUser(mfaUser.email, { id: mfaUser.id, factors: [verifiedFactor as Factor] }),
      },
    },
  );
}

describe('the no-backup-codes modal', { timeout: 20_000 }, () => {
  beforeEach(() => window.sessionStorage.clear());

  it('asks a user with 2FA and no code left to generate new ones', async () => {
    const { user } = await withCodesLeft(0);
    expect(await findLoadedDialog('No backup codes left')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Generate backup codes' }));
    expect(await screen.findByRole('heading', { name: 'Security page' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('"Not now" keeps it closed for the rest of the session', async () => {
    const { user, unmount } = await withCodesLeft(0);
    await user.click(await screen.findByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.sessionStorage.getItem(NO_BACKUP_CODES_DISMISSED_KEY)).toBe('1');
    unmount();
    const again = await withCodesLeft(0);
    expect(
      again.backend.requestsTo('POST', '/rest/v1/rpc/two_factor_backup_codes_remaining'),
    ).toEqual([]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays closed while codes are left', async () => {
    const { backend } = await withCodesLeft(2);
    await waitFor(() =>
      expect(
        backend.requestsTo('POST', '/rest/v1/rpc/two_factor_backup_codes_remaining'),
      ).toHaveLength(1),
    );
    // Let the answer render: the modal would open now if it were to.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
