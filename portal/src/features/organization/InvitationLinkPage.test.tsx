import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import InvitationLinkPage from './InvitationLinkPage.tsx';

const TOKEN = 'a'.repeat(64);
const PATH = `/app/invitation/${TOKEN}`;

const invitation = (overrides: Record<string, unknown> = {}) => ({
  id: 'inv-1',
  email: 'ada@example.com',
  source: 'organization',
  state: 'pending',
  organization: { name: 'Acme', slug: 'acme' },
  team: null,
  inviter_name: 'Olga',
  role: 'Analyst',
  account_exists: false,
  ...overrides,
});

function open(options: { signedIn: boolean; answer: Response; backend?: TestBackend }) {
  const backend = options.backend ?? new TestBackend();
  backend.on('POST', '/rest/v1/rpc/invitation_by_token', () => options.answer.clone());
  return render(
    <Routes>
      <Route path="/app/invitation/:token" element={<InvitationLinkPage />} />
      <Route path="/app/organizations/:org" element={<p>The organization page</p>} />
    </Routes>,
    { world: options.signedIn ? signedInWorld() : {}, backend, route: PATH },
  );
}

describe('InvitationLinkPage', { timeout: 30_000 }, () => {
  it('offers a guest to sign up with the invited address and come back', async () => {
    open({ signedIn: false, answer: json(invitation()) });
    const address = await screen.findByText('ada@example.com');
    expect(address.parentElement).toHaveTextContent(
      'Olga invited ada@example.com to join the organization Acme as Analyst.',
    );
    const signUp = screen.getByRole('link', { name: 'Sign up' });
    const target = new URL(signUp.getAttribute('href')!, 'http://portal.test');
    expect(target.pathname).toBe('/app/register');
    expect(target.searchParams.get('email')).toBe('ada@example.com');
    expect(target.searchParams.get('to')).toBe(PATH);
    expect(screen.getByRole('link', { name: 'I already have an account' })).toHaveAttribute(
      'href',
      `/app/login?to=${encodeURIComponent(PATH)}`,
    );
  });

  it('lets the invited person accept, then opens the organization', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/accept_invitation_token', () =>
      json({ id: 'inv-1', status: 'accepted' }),
    );
    const { user } = open({ signedIn: true, answer: json(invitation()), backend });
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('The invitation has been accepted.')).toBeInTheDocument();
    expect(await screen.findByText('The organization page')).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/rest/v1/rpc/accept_invitation_token');
    expect(await request!.clone().json()).toEqual({ p_token: TOKEN });
  });

  it('says why the link cannot be answered: another address, used, expired, refused, unknown', async () => {
    const other = open({
      signedIn: true,
      answer: json(invitation({ email: 'someone@example.com' })),
    });
    expect(
      await screen.findByText(/This invitation was sent to someone@example.com/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    other.unmount();

    const used = open({ signedIn: true, answer: json(invitation({ state: 'used' })) });
    expect(
      await screen.findByText('This invitation has already been answered.'),
    ).toBeInTheDocument();
    used.unmount();

    const expired = open({ signedIn: false, answer: json(invitation({ state: 'expired' })) });
    expect(await screen.findByText(/This invitation has expired/)).toBeInTheDocument();
    expired.unmount();

    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/reject_invitation_token', () =>
      postgrestError(409, {
        message: 'invitation_used',
        details: 'This invitation has already been answered.',
        hint: 'invitation',
      }),
    );
    const { user, unmount } = open({ signedIn: true, answer: json(invitation()), backend });
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation has already been answered.',
    );
    unmount();

    open({
      signedIn: false,
      answer: postgrestError(404, {
        message: 'invitation_not_found',
        details: 'Invitation not found.',
        hint: 'invitation',
      }),
    });
    expect(await screen.findByText('This invitation link is not valid.')).toBeInTheDocument();
  });
});
