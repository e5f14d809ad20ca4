import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, TestBackend } from '../../../test/backend.ts';
import { renderApp } from '../../../test/render.tsx';
import { signedInWorld, TEST_USER_ID, type TestWorld } from '../../../test/world.ts';

vi.setConfig({ testTimeout: 30_000 });

const PERSONAL_ACCOUNT_ID = '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21';
const ORG_ID = 'org-acme';
const TEAM_ACCOUNT_ID = 'account-marketing';

/** A developer in organization Acme; teams answer with the Marketing team's account. */
function developer(): TestWorld {
  const marketing = { id: 'team-marketing', name: 'Marketing', account_id: TEAM_ACCOUNT_ID };
  return signedInWorld({
    profile: { is_developer: true },
    organizations: [
      {
        id: ORG_ID,
        slug: 'acme',
        name: 'Acme',
        account_id: 'account-acme',
        archived_at: null,
        account: { owner_id: TEST_USER_ID },
        organization_users: [],
      },
    ],
    teamsBySlug: [marketing],
  });
}

function orgBackend() {
  return new TestBackend().on('GET', '/rest/v1/aliases', () => json([]));
}

function lastListRead(backend: TestBackend): URLSearchParams {
  const reads = backend.requestsTo('GET', '/rest/v1/aliases');
  return new URL(reads.at(-1)!.url).searchParams;
}

describe('organization link pages', () => {
  it('lists every link made in the organization on its dashboard', async () => {
    const backend = orgBackend();
    renderApp({ route: '/app/organizations/acme/dashboard', world: developer(), backend });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Organization dashboard' }),
    ).toBeVisible();
    expect(await screen.findByText('No active links yet.', {}, { timeout: 10_000 })).toBeVisible();
    const read = lastListRead(backend);
    expect(read.get('organization_id')).toBe(`eq.${ORG_ID}`);
    expect(read.get('account_id')).toBeNull();
  });

  it('puts the create form in organization mode above the list, with a description', async () => {
    const backend = orgBackend();
    renderApp({ route: '/app/organizations/acme/dashboard', world: developer(), backend });
    await screen.findByRole('heading', { level: 1, name: 'Organization dashboard' });
    expect(await screen.findByLabelText(/long url/i, {}, { timeout: 10_000 })).toBeVisible();
    // The description field belongs to organization mode only (link-creation 2).
    expect(await screen.findByLabelText(/description/i)).toBeVisible();
  });

  it("lists the user's personal links made in the organization on org.me", async () => {
    const backend = orgBackend();
    renderApp({ route: '/app/organizations/acme/me', world: developer(), backend });
    expect(await screen.findByRole('heading', { level: 1, name: 'My links' })).toBeVisible();
    await screen.findByText('No active links yet.', {}, { timeout: 10_000 });
    const read = lastListRead(backend);
    expect(read.get('organization_id')).toBe(`eq.${ORG_ID}`);
    expect(read.get('account_id')).toBe(`eq.${PERSONAL_ACCOUNT_ID}`);
  });

  it("lists a team's links on its page", async () => {
    const backend = orgBackend();
    renderApp({ route: '/app/organizations/acme/team/marketing', world: developer(), backend });
    expect(await screen.findByRole('heading', { level: 1, name: 'Team links' })).toBeVisible();
    await screen.findByText('No active links yet.', {}, { timeout: 10_000 });
    expect(lastListRead(backend).get('account_id')).toBe(`eq.${TEAM_ACCOUNT_ID}`);
  });

  it('searches org.me in search_links, narrowed to the organization', async () => {
    const backend = orgBackend().on('POST', '/rest/v1/rpc/search_links', () => json([]));
    renderApp({ route: '/app/organizations/acme/me?q=url%3Adeck', world: developer(), backend });
    await screen.findByText('No active links match “url:deck”.', {}, { timeout: 10_000 });
    const bodies = await Promise.all(
      backend.requestsTo('POST', '/rest/v1/rpc/search_links').map((request) => request.json()),
    );
    expect(bodies).toEqual([
      {
        p_account_id: PERSONAL_ACCOUNT_ID,
        p_organization_id: ORG_ID,
        p_query: 'deck',
        p_field: 'url',
        p_state: 'active',
        p_limit: 26,
      },
    ]);
    expect(backend.requestsTo('GET', '/rest/v1/aliases')).toHaveLength(0);
  });

  it("searches the organization dashboard's links across its accounts through the aliases table", async () => {
    const backend = orgBackend();
    renderApp({
      route: '/app/organizations/acme/dashboard?q=deck',
      world: developer(),
      backend,
    });
    await screen.findByText('No active links match “deck”.', {}, { timeout: 10_000 });
    const read = lastListRead(backend);
    expect(read.get('organization_id')).toBe(`eq.${ORG_ID}`);
    expect(read.get('url_match.url')).toBe('ilike.%deck%');
    expect(backend.requestsTo('POST', '/rest/v1/rpc/search_links')).toHaveLength(0);
  });
});
