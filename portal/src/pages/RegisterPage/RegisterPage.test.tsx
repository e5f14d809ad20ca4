import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CAPS_LOCK_ON } from '../../auth/PasswordField.tsx';
import { CONFIRMATION_RESENT } from '../../auth/useResendConfirmation.ts';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import RegisterPage from './RegisterPage.tsx';

const PENDING_USER = {
  id: '0a5e5a8e-0000-4000-8000-000000000001',
  aud: 'authenticated',
  role: '',
  email: 'ada@example.com',
  app_metadata: { provider: 'email', providers: ['email'] },
  user_metadata: {},
  identities: [],
  created_at: '2026-11-22T00:00:00Z',
  confirmation_sent_at: '2026-11-22T00:00:00Z',
};

/** Auth's answers carry their API version; supabase-js reads error codes only with it. */
const AUTH_API_VERSION = { 'x-supabase-api-version': '2024-01-01' };

function renderRegister(backend = new TestBackend()) {
  return { ...render(<RegisterPage />, { route: '/app/register', backend }), backend };
}

async function fillIn(
  user: ReturnType<typeof renderRegister>['user'],
  values: { name?: string; email?: string; password?: string },
) {
  if (values.name) await user.type(screen.getByLabelText('Name (optional)'), values.name);
  if (values.email) await user.type(screen.getByLabelText(/^E-mail/), values.email);
  if (values.password) await user.type(screen.getByLabelText(/^Password/), values.password);
}

describe('RegisterPage', () => {
  it('labels its fields, its toggle and its button', () => {
    renderRegister();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign up' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Sign up' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name (optional)')).toHaveAttribute('autocomplete', 'name');
    expect(screen.getByLabelText(/^E-mail/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/app/login');
  });

  it('refuses empty fields without calling Auth, focusing the first invalid one', async () => {
    const { user, backend } = renderRegister();
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    const email = screen.getByLabelText(/^E-mail/);
    expect(email).toHaveAccessibleDescription('The email field is required.');
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(
      'The password field is required.',
    );
    expect(screen.getByLabelText('Name (optional)')).not.toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
    expect(backend.requestsTo('POST', '/auth/v1/signup')).toHaveLength(0);
  });

  it("refuses a password under 6 characters with the spec's message", async () => {
    const { user, backend } = renderRegister();
    await fillIn(user, { email: 'ada@example.com', password: 'five5' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveAccessibleDescription('The password must be at least 6 characters');
    expect(password).toHaveFocus();
    expect(backend.requestsTo('POST', '/auth/v1/signup')).toHaveLength(0);
  });

  it('refuses a name over 255 characters', async () => {
    const { user } = renderRegister();
    await user.click(screen.getByLabelText('Name (optional)'));
    await user.paste('x'.repeat(256));
    await fillIn(user, { email: 'ada@example.com', password: 'secret1' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByLabelText('Name (optional)')).toHaveAccessibleDescription(
      expect.stringContaining('The name must not be greater than 255 characters.'),
    );
  });

  it('shows and hides the password with a labelled toggle', async () => {
    const { user } = renderRegister();
    await fillIn(user, { password: 'secret1' });
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.click(toggle);
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });

  it('announces caps lock while typing the password, and stops when it is off', async () => {
    const { user } = renderRegister();
    const password = screen.getByLabelText(/^Password/);
    const status = () =>
      screen.getAllByRole('status').find((node) => node.textContent === CAPS_LOCK_ON);
    await user.click(password);
    await user.keyboard('{CapsLock}A');
    expect(status()).toBeDefined();
    await user.keyboard('{CapsLock}a');
    expect(status()).toBeUndefined();
  });

  it('signs up with the name, the trimmed e-mail and the verification link, then says to check the mail', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/signup', () => json(PENDING_USER));
    const { user } = renderRegister(backend);
    await fillIn(user, { name: ' Ada ', email: ' ada@example.com ', password: 'secret1' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' }),
    ).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/auth/v1/signup');
    const redirect = new URL(request!.url).searchParams.get('redirect_to');
    expect(redirect).toBe(`${window.location.origin}/app/email/verify`);
    expect(await request!.json()).toMatchObject({
      email: 'ada@example.com',
      password: 'secret1',
      data: { name: 'Ada' },
    });
  });

  it('sends the confirmation again on request, and says so', async () => {
    const backend = new TestBackend()
      .on('POST', '/auth/v1/signup', () => json(PENDING_USER))
      .on('POST', '/auth/v1/resend', () => json({}));
    const { user } = renderRegister(backend);
    await fillIn(user, { email: 'ada@example.com', password: 'secret1' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await user.click(await screen.findByRole('button', { name: 'Send the link again' }));

    expect(await screen.findByText(CONFIRMATION_RESENT)).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/auth/v1/resend');
    expect(await request!.json()).toMatchObject({ type: 'signup', email: 'ada@example.com' });
    expect(new URL(request!.url).searchParams.get('redirect_to')).toBe(
      `${window.location.origin}/app/email/verify`,
    );
  });

  it('puts a password Auth refuses under the password field', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/signup', () =>
      json(
        {
          code: 'weak_password',
          msg: 'Password is too common.',
          weak_password: { reasons: ['pwned'] },
        },
        { status: 422, headers: AUTH_API_VERSION },
      ),
    );
    const { user } = renderRegister(backend);
    await fillIn(user, { email: 'ada@example.com', password: 'password' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(
        'Password is too common.',
      ),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('announces other failures and keeps the form', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/signup', () =>
      json(
        { code: 'over_email_send_rate_limit', msg: 'Slow down' },
        { status: 429, headers: AUTH_API_VERSION },
      ),
    );
    const { user } = renderRegister(backend);
    await fillIn(user, { email: 'ada@example.com', password: 'secret1' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Wait a moment and try again.',
    );
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeEnabled();
  });
});
