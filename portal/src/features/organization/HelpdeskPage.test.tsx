import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import HelpdeskPage from './HelpdeskPage.tsx';

const ORGANIZATION = {
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  account_id: 'acc-org',
  archived_at: null,
  account: { owner_id: TEST_USER_ID },
  organization_users: [],
};

const REQUESTS = [
  {
    id: 'req-2',
    subject: 'Domain not verified',
    message: 'Since yesterday.',
    state: 'answered',
    answer: 'Your DNS record was missing; it works now.',
    answered_at: '2026-01-03T10:00:00Z',
    created_at: '2026-01-02T10:00:00Z',
    author: { name: 'Ian', email: 'ian@example.com' },
  },
  {
    id: 'req-1',
    subject: 'Invoice address',
    message: 'Please change it.',
    state: 'open',
    answer: null,
    answered_at: null,
    created_at: '2026-01-01T10:00:00Z',
    author: null,
  },
];

function open(backend = new TestBackend()) {
  backend.on('GET', '/rest/v1/support_requests', () => json(REQUESTS));
  return render(
    <Routes>
      <Route path="/app/organizations/:org/helpdesk" element={<HelpdeskPage />} />
    </Routes>,
    {
      world: signedInWorld({ organizations: [ORGANIZATION] }),
      backend,
      route: '/app/organizations/acme/helpdesk',
    },
  );
}

describe('HelpdeskPage', { timeout: 30_000 }, () => {
  it('lists the requests with their state and answers', async () => {
    open();
    const answered = await screen.findByRole('listitem', { name: 'Domain not verified' });
    expect(within(answered).getByText('Answered')).toBeInTheDocument();
    expect(
      within(answered).getByText('Your DNS record was missing; it works now.'),
    ).toBeInTheDocument();
    const pending = screen.getByRole('listitem', { name: 'Invoice address' });
    expect(within(pending).getByText('Open')).toBeInTheDocument();
    expect(within(pending).getByText(/A former member/)).toBeInTheDocument();
  });

  it('checks the form, then sends a request in the organization', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/support_requests', () => json({ id: 'req-3' }, { status: 201 }));
    const { user } = open(backend);
    const form = await screen.findByRole('form', { name: 'Ask for support' });
    await user.click(within(form).getByRole('button', { name: 'Send request' }));
    expect(await within(form).findByText('The subject field is required.')).toBeInTheDocument();
    expect(within(form).getByText('The message field is required.')).toBeInTheDocument();
    expect(backend.requestsTo('POST', '/rest/v1/support_requests')).toHaveLength(0);

    await user.type(within(form).getByLabelText(/Subject/), 'Bulk import stuck');
    await user.type(within(form).getByLabelText(/Message/), 'Job 42 has not moved for an hour.');
    await user.click(within(form).getByRole('button', { name: 'Send request' }));
    expect(
      await screen.findByText('Your request has been sent. Our support team will answer here.'),
    ).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/rest/v1/support_requests');
    expect(await request!.clone().json()).toEqual({
      organization_id: 'org-1',
      author_id: TEST_USER_ID,
      subject: 'Bulk import stuck',
      message: 'Job 42 has not moved for an hour.',
    });
  });
});
