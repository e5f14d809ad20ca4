import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONFIRMATION_RESENT } from '../../auth/useResendConfirmation.ts';
import { json, TestBackend } from '../../test/backend.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { createTestServices, sessionBody } from '../../test/services.ts';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import { INVALID_VERIFICATION_LINK, LINK_FOR_ANOTHER_ACCOUNT } from './VerifyEmailPage.tsx';

const ADA = { id: TEST_USER_ID, email: 'ada@example.com' };
const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('VerifyEmailPage', () => {
  it('sends a guest without a link to log in, coming back here afterwards', async () => {
    const { router } = renderApp({ route: '/app/email/verify' });
    await waitFor(() => expect(currentUrl(router)).toBe('/app/login?to=%2Fapp%2Femail%2Fverify'));
  });

  it('tells a signed-in user with an unconfirmed address to follow the link, and sends it again', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/resend', () => json({}));
    const world = signedInWorld({ user: { ...ADA, emailConfirmed: false } });
    const { user } = renderApp({ route: '/app/email/verify', world, backend });
    expect(await heading('Verify your e-mail address')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText(CONFIRMATION_RESENT)).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/auth/v1/resend');
    expect(await request!.json()).toMatchObject({ type: 'signup', email: 'ada@example.com' });
    expect(new URL(request!.url).searchParams.get('redirect_to')).toBe(
      `${window.location.origin}/app/email/verify`,
    );
  });

  it('confirms arrival through the mail link (signed in, address confirmed)', async () => {
    const { user, router } = renderApp({ route: '/app/email/verify', world: signedInWorld() });
    expect(await heading('E-mail address verified')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Continue' }));
    expect(currentUrl(router)).toBe('/app');
  });

  it('says a failed mail link is invalid or expired, and sends a new one to the address given', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/resend', () => json({}));
    const testServices = createTestServices(backend);
    testServices.services.flash.push({
      type: 'error',
      message: 'Email link is invalid or has expired',
    });
    const { user } = renderApp({ route: '/app/email/verify', backend, testServices });
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID_VERIFICATION_LINK);
    await waitFor(() => expect(testServices.services.flash.getSnapshot()).toEqual([]));

    await user.click(screen.getByRole('button', { name: 'Send a new link' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
      'The email field is required.',
    );
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText(CONFIRMATION_RESENT)).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/auth/v1/resend');
    expect(await request!.json()).toMatchObject({ type: 'signup', email: 'ada@example.com' });
  });

  it('redeems the token hash of a {userId}/{verification_hash} link once, signing in', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/verify', () => json(sessionBody(ADA)));
    const { router } = renderApp({ route: `/app/email/verify/${TEST_USER_ID}/hash-abc`, backend });
    expect(await heading('E-mail address verified')).toBeInTheDocument();
    const requests = backend.requestsTo('POST', '/auth/v1/verify');
    expect(requests).toHaveLength(1);
    expect(currentUrl(router)).toBe(`/app/email/verify/${TEST_USER_ID}/hash-abc`);
    expect(await requests[0]!.json()).toMatchObject({ type: 'email', token_hash: 'hash-abc' });
    expect(window.localStorage.getItem('stateStatus')).toBe('true');
  });

  it('takes token_hash and type from the query too', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/verify', () => json(sessionBody(ADA)));
    renderApp({ route: '/app/email/verify?token_hash=hash-q&type=signup', backend });
    expect(await heading('E-mail address verified')).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/auth/v1/verify');
    expect(await request!.json()).toMatchObject({ type: 'signup', token_hash: 'hash-q' });
  });

  it('says a refused token is invalid or expired', async () => {
    const backend = new TestBackend().on('POST', '/auth/v1/verify', () =>
      json(
        { code: 'otp_expired', msg: 'Token has expired or is invalid' },
        { status: 403, headers: { 'x-supabase-api-version': '2024-01-01' } },
      ),
    );
    const { router } = renderApp({ route: `/app/email/verify/${TEST_USER_ID}/spent`, backend });
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID_VERIFICATION_LINK);
    expect(screen.getByRole('button', { name: 'Send a new link' })).toBeEnabled();
    expect(currentUrl(router)).toBe(`/app/email/verify/${TEST_USER_ID}/spent`);
  });

  it("does not redeem another account's link for the signed-in user", async () => {
    const { backend } = renderApp({
      route: '/app/email/verify/someone-else/hash-abc',
      world: signedInWorld(),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(LINK_FOR_ANOTHER_ACCOUNT);
    expect(backend.requestsTo('POST', '/auth/v1/verify')).toHaveLength(0);
  });
});
