import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { CurrentRouteContext } from '../../routes/currentRoute.ts';
import type { RouteName } from '../../routes/paths.ts';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import DomainsPage from './DomainsPage.tsx';
import TeamDomainsPage from './TeamDomainsPage.tsx';

const ORG_ACCOUNT = 'acc-org';
const ACCOUNT = {
  account_id: ORG_ACCOUNT,
  kind: 'organization',
  name: 'Acme',
  organization_slug: 'acme',
  add_branded_domains: true,
  add_vanity_subdomains: true,
  domain_root_redirect: true,
  domain_404_redirect: true,
};
const domainRow = (id: string, domain: string, forAllTeams: boolean) => ({
  id,
  domain,
  kind: 'organization',
  account_id: ORG_ACCOUNT,
  base_domain_id: null,
  for_all_teams: forAllTeams,
  root_redirect_url: null,
  not_found_redirect_url: null,
  verification_status: 'verified',
  verification_token: 't',
  verification_problem: null,
  verification_checked_at: null,
  verification_next_check_at: null,
  verification_deadline: null,
  verified_at: '2026-11-26T10:00:00Z',
  created_at: '2026-11-26T10:00:00Z',
});
const ALL = domainRow('dom-all', 'acme.example', true);
const MARKETING_ONLY = domainRow('dom-mkt', 'mkt.acme.example', false);
const TEAMS = [
  {
    id: 'team-mkt',
    name: 'Marketing',
    archived_at: null,
    organization: { account_id: ORG_ACCOUNT },
  },
  { id: 'team-sales', name: 'Sales', archived_at: null, organization: { account_id: ORG_ACCOUNT } },
];

function open(routeName: RouteName, path: string, page: React.ReactElement, accounts = [ACCOUNT]) {
  const backend = new TestBackend();
  const rendered = render(
    <CurrentRouteContext.Provider value={routeName}>
      <Routes>
        <Route path={path} element={page} />
      </Routes>
    </CurrentRouteContext.Provider>,
    { world: signedInWorld(), backend, route: path.replace(':org', 'acme') },
  );
  backend.on('POST', '/rest/v1/rpc/domain_accounts', () => json(accounts));
  backend.on('POST', '/rest/v1/rpc/account_domain_usage', () =>
    json([
      {
        domains: 2,
        subdomains: 0,
        vanity: 0,
        max_domains: null,
        max_subdomains: null,
        max_domains_subdomains: 25,
        max_vanity_subdomains: 1,
        discounted_domain_count: 3,
      },
    ]),
  );
  backend.on('POST', '/rest/v1/rpc/domain_link_counts', () => json([]));
  backend.on('GET', '/rest/v1/domains', (request, url) => {
    const id = url.searchParams.get('id');
    const rows = [ALL, MARKETING_ONLY].filter((row) => id == null || id === `eq.${row.id}`);
    return request.headers.get('accept')?.includes('vnd.pgrst.object') ? json(rows[0]) : json(rows);
  });
  backend.on('GET', '/rest/v1/domain_teams', (_request, url) =>
    json(
      url.searchParams.get('domain_id') === `eq.${MARKETING_ONLY.id}`
        ? [{ team_id: 'team-mkt' }]
        : [],
    ),
  );
  backend.on('GET', '/rest/v1/teams', () => json(TEAMS));
  backend.on('POST', '/rest/v1/domain_teams', () => json(null, { status: 201 }));
  backend.on('PATCH', '/rest/v1/domains', () => json(null, { status: 204 }));
  return rendered;
}

describe('organization domains', { timeout: 30_000 }, () => {
  it('org.settings.domains lists the organization domains, without vanity subdomains', async () => {
    open(
      'org.settings.domains',
      '/app/organizations/:org/settings/profile/domains',
      <DomainsPage />,
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Organization domains' }),
    ).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Domains' });
    expect(within(table).getByRole('link', { name: 'Settings of acme.example' })).toHaveAttribute(
      'href',
      `/app/settings/edit/acme.example?account=${ORG_ACCOUNT}`,
    );
    expect(screen.getByRole('link', { name: 'Add Domain' })).toHaveAttribute(
      'href',
      `/app/settings/branded-domains/create?account=${ORG_ACCOUNT}`,
    );
    expect(screen.queryByRole('link', { name: 'Add a vanity subdomain' })).toBeNull();
  });

  it('says so to someone without the domains permission', async () => {
    open(
      'org.settings.domains',
      '/app/organizations/:org/settings/profile/domains',
      <DomainsPage />,
      [],
    );
    expect(await screen.findByText('No domains to manage here')).toBeVisible();
  });

  it('org.settings.teams.domains gives a domain to chosen teams', async () => {
    const { backend, user } = open(
      'org.settings.teams.domains',
      '/app/organizations/:org/settings/teams/domains',
      <TeamDomainsPage />,
    );
    const all = await screen.findByRole('region', { name: 'acme.example' });
    const marketing = screen.getByRole('region', { name: 'mkt.acme.example' });
    expect(within(all).getByRole('radio', { name: 'All teams' })).toBeChecked();
    expect(within(marketing).getByRole('radio', { name: 'Chosen teams' })).toBeChecked();
    expect(within(marketing).getByRole('checkbox', { name: 'Marketing' })).toBeChecked();
    expect(within(marketing).getByRole('checkbox', { name: 'Sales' })).not.toBeChecked();

    await user.click(within(marketing).getByRole('checkbox', { name: 'Sales' }));
    await user.click(within(marketing).getByRole('button', { name: 'Save teams' }));
    await waitFor(() => expect(backend.requestsTo('PATCH', '/rest/v1/domains')).toHaveLength(1));
    expect(await backend.requestsTo('POST', '/rest/v1/domain_teams')[0]!.json()).toEqual([
      { domain_id: MARKETING_ONLY.id, team_id: 'team-sales' },
    ]);
    expect(await backend.requestsTo('PATCH', '/rest/v1/domains')[0]!.json()).toEqual({
      for_all_teams: false,
    });
  });
});
