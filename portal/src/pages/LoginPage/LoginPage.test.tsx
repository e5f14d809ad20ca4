import { AuthApiError, AuthRetryableFetchError, type AuthError } from '@supabase/supabase-js';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Credentials } from '../../auth/AuthContext.ts';
import { render } from '../../test/render.tsx';
import LoginPage from './LoginPage.tsx';

function renderLogin(signIn: (credentials: Credentials) => Promise<AuthError | null>) {
  return render(<LoginPage />, { route: '/app/login', auth: { signIn } });
}

const neverCalled = () => Promise.reject(new Error('signIn must not be called'));

describe('LoginPage', () => {
  it('labels its fields and its button', () => {
    renderLogin(neverCalled);
    expect(screen.getByRole('form', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/app/password/reset',
    );
    expect(screen.getByRole('link', { name: 'No account yet? Sign up' })).toHaveAttribute(
      'href',
      '/app/register',
    );
  });

  it('refuses empty fields without calling the server, and focuses the first one', async () => {
    const signIn = vi.fn(neverCalled);
    const { user } = renderLogin(signIn);
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const email = screen.getByLabelText('E-mail');
    expect(email).toHaveAccessibleDescription('The email field is required.');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      'The password field is required.',
    );
    expect(email).toHaveFocus();
    expect(signIn).not.toHaveBeenCalled();
  });

  it('refuses a malformed e-mail address and focuses it', async () => {
    const signIn = vi.fn(neverCalled);
    const { user } = renderLogin(signIn);
    await user.type(screen.getByLabelText('E-mail'), 'ada.example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
      'The email must be a valid email address.',
    );
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid', 'true');
    expect(signIn).not.toHaveBeenCalled();
  });

  it('sends the trimmed e-mail and the password as typed', async () => {
    const signIn = vi.fn(async (_credentials: Credentials) => null);
    const { user } = renderLogin(signIn);
    await user.type(screen.getByLabelText('E-mail'), '  ada@example.com ');
    await user.type(screen.getByLabelText('Password'), ' with spaces ');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(signIn).toHaveBeenCalledWith({ email: 'ada@example.com', password: ' with spaces ' });
  });

  it('is busy while the server answers, then announces why login failed', async () => {
    let answer: (error: AuthError | null) => void = () => {};
    const { user } = renderLogin(() => new Promise((resolve) => (answer = resolve)));
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled();
    expect(screen.getByRole('form', { name: 'Log in' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    answer(new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not log in');
    expect(alert).toHaveTextContent('Wrong e-mail or password.');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(screen.getByRole('form', { name: 'Log in' })).toHaveAttribute('aria-busy', 'false');
  });

  it('clears the previous failure when trying again', async () => {
    const answers: (AuthError | null)[] = [
      new AuthRetryableFetchError('Failed to fetch', 0),
      new AuthApiError('Email not confirmed', 400, 'email_not_confirmed'),
    ];
    const { user } = renderLogin(async () => answers.shift() ?? null);
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');

    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong.');

    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Confirm your e-mail address first'),
    );
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
