import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import PasswordResetRequestPage, { RESET_LINK_SENT } from './PasswordResetRequestPage.tsx';

function renderRequest(backend = new TestBackend()) {
  return render(<PasswordResetRequestPage />, { route: '/app/password/reset', backend });
}

describe('PasswordResetRequestPage', () => {
  it('refuses an empty or malformed address without calling Auth', async () => {
    const { user, backend } = renderRequest();
    const email = screen.getByLabelText('E-mail');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(email).toHaveAccessibleDescription('The email field is required.');
    expect(email).toHaveFocus();
    await user.type(email, 'ada.example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(email).toHaveAccessibleDescription('The email must be a valid email address.');
    expect(backend.requestsTo('POST', '/auth/v1/recover')).toHaveLength(0);
  });

  it('asks for the mail with a link back to password/reset/{token}, and answers without telling whether the account exists', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/recover', () => json({}));
    const { user } = renderRequest(backend);
    await user.type(screen.getByLabelText('E-mail'), ' ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByText(RESET_LINK_SENT)).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/auth/v1/recover');
    expect(await request!.json()).toMatchObject({ email: 'ada@example.com' });
    expect(new URL(request!.url).searchParams.get('redirect_to')).toBe(
      `${window.location.origin}/app/password/reset/email-link`,
    );
    expect(screen.getByRole('button', { name: 'Send the link again' })).toBeEnabled();
  });

  it('announces a refusal, such as asking too often', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/recover', () =>
      json(
        { code: 'over_email_send_rate_limit', msg: 'Slow down' },
        { status: 429, headers: { 'x-supabase-api-version': '2024-01-01' } },
      ),
    );
    const { user } = renderRequest(backend);
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Wait a moment and try again.',
    );
    expect(screen.queryByText(RESET_LINK_SENT)).not.toBeInTheDocument();
  });
});
