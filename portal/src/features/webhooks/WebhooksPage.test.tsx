import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import WebhooksPage from './WebhooksPage.tsx';

const PERSONAL = { account_id: 'acc-personal', kind: 'personal', name: 'Ada' };
const TEAM = { account_id: 'acc-team', kind: 'team', name: 'Growth' };
const ORGANIZATION = { account_id: 'acc-org', kind: 'organization', name: 'Acme' };

function Location() {
  const { search } = useLocation();
  return <output aria-label="Query">{search}</output>;
}

function open(accounts: unknown[], route = '/app/settings/webhooks') {
  const backend = new TestBackend();
  backend.on('POST', '/rest/v1/rpc/webhook_accounts', () => json(accounts));
  backend.on('GET', '/rest/v1/webhook_endpoints', () => json([]));
  backend.on('GET', '/rest/v1/webhook_deliveries', () => json([]));
  const rendered = render(
    <>
      <WebhooksPage />
      <Location />
    </>,
    { world: signedInWorld(), backend, route },
  );
  return rendered;
}

/** The accounts whose endpoints the page asked for, in order. */
const endpointAccounts = (backend: TestBackend) =>
  backend
    .requestsTo('GET', '/rest/v1/webhook_endpoints')
    .map((request) => new URL(request.url).searchParams.get('account_id'));

describe('WebhooksPage: account picker', () => {
  it('shows no picker when only the personal workspace has webhooks', async () => {
    const { backend } = open([PERSONAL]);
    expect(await screen.findByText(/No endpoints yet/)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Account' })).toBeNull();
    expect(endpointAccounts(backend)).toEqual([`eq.${PERSONAL.account_id}`]);
  });

  it('opens the account the link names, and picking another puts it in the URL', async () => {
    const { backend, user } = open(
      [PERSONAL, TEAM, ORGANIZATION],
      `/app/settings/webhooks?account=${ORGANIZATION.account_id}`,
    );
    const picker = await screen.findByRole('combobox', { name: 'Account' });
    expect(picker).toHaveValue('Acme (organization)');
    await waitFor(() =>
      expect(endpointAccounts(backend)).toEqual([`eq.${ORGANIZATION.account_id}`]),
    );
    expect(screen.queryByText('Account not available')).toBeNull();

    await user.click(picker);
    expect(screen.getByRole('option', { name: 'Personal workspace' })).toBeVisible();
    await user.click(screen.getByRole('option', { name: 'Growth (team)' }));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Query' })).toHaveTextContent(
        `?account=${TEAM.account_id}`,
      ),
    );
    expect(picker).toHaveValue('Growth (team)');
    await waitFor(() => expect(endpointAccounts(backend)).toContain(`eq.${TEAM.account_id}`));
  });

  it('falls back to the personal workspace, with a notice, for an account the user cannot manage', async () => {
    const { backend } = open([PERSONAL, TEAM], '/app/settings/webhooks?account=acc-elsewhere');
    expect(await screen.findByText('Account not available')).toBeInTheDocument();
    expect(screen.getByText(/Showing Personal workspace instead/)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Account' })).toHaveValue('Personal workspace');
    await waitFor(() => expect(endpointAccounts(backend)).toEqual([`eq.${PERSONAL.account_id}`]));
  });

  it('offers the upgrade when no account has webhooks', async () => {
    const { backend } = open([]);
    expect(await screen.findByText('Webhooks are part of the Enterprise plan')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Account' })).toBeNull();
    expect(endpointAccounts(backend)).toEqual([]);
  });
});
