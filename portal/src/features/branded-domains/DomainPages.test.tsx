import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { signedInWorld, subscriptionRow, type TestWorld } from '../../test/world.ts';

const PERSONAL = '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21';
const SLOW = { timeout: 10_000 };
const ROOMY = { timeout: 30_000 };

const ACCOUNT = {
  account_id: PERSONAL,
  kind: 'personal',
  name: 'Ada',
  organization_slug: null,
  add_branded_domains: true,
  add_vanity_subdomains: true,
  domain_root_redirect: true,
  domain_404_redirect: false,
};

const DOMAIN = {
  id: 'dom-1',
  domain: 'links.example.com',
  kind: 'branded',
  account_id: PERSONAL,
  base_domain_id: null,
  for_all_teams: true,
  root_redirect_url: null,
  not_found_redirect_url: null,
  verification_status: 'pending',
  verification_token: 'tok123',
  verification_problem: 'txt_missing',
  verification_checked_at: '2026-11-26T10:00:00Z',
  verification_next_check_at: '2026-11-26T10:01:00Z',
  verification_deadline: '2026-11-29T10:00:00Z',
  verified_at: null,
  created_at: '2026-11-26T10:00:00Z',
};

const USAGE = {
  domains: 1,
  subdomains: 0,
  vanity: 0,
  max_domains: 5,
  max_subdomains: 5,
  max_domains_subdomains: 10,
  max_vanity_subdomains: 1,
  discounted_domain_count: 1,
};

const subscribed = (overrides: Partial<TestWorld> = {}) =>
  signedInWorld({ subscriptions: [subscriptionRow()], ...overrides });

function open(route: string, world: TestWorld = subscribed(), domains: unknown[] = [DOMAIN]) {
  const backend = new TestBackend();
  const rendered = renderApp({ route, world, backend });
  backend.on('POST', '/rest/v1/rpc/domain_accounts', () => json([ACCOUNT]));
  backend.on('POST', '/rest/v1/rpc/account_domain_usage', () => json([USAGE]));
  backend.on('POST', '/rest/v1/rpc/domain_link_counts', () =>
    json([{ domain_id: DOMAIN.id, links: 7 }]),
  );
  backend.on('GET', '/rest/v1/domains', (request) =>
    request.headers.get('accept')?.includes('vnd.pgrst.object')
      ? json(domains[0] ?? null)
      : json(domains),
  );
  backend.on('POST', '/functions/v1/domain-verify', () =>
    json({
      ...DOMAIN,
      target: { cname: 'redirect.shortlane.app', addresses: ['203.0.113.10', '2001:db8::10'] },
    }),
  );
  return rendered;
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name }, SLOW);

describe('settings/branded-domains', () => {
  it(
    'lists each domain with its state, problem, next check and links, and the plan room',
    ROOMY,
    async () => {
      open('/app/settings/branded-domains');
      expect(await heading('Branded domains')).toBeInTheDocument();
      const table = await screen.findByRole('table', { name: 'Domains' }, SLOW);
      const row = within(table).getByRole('row', { name: /links\.example\.com/ });
      expect(within(row).getByText('Pending')).toBeInTheDocument();
      expect(within(row).getByText('The TXT record was not found.')).toBeInTheDocument();
      expect(within(row).getByText('7')).toBeInTheDocument();
      expect(within(row).getByRole('link', { name: 'Verify links.example.com' })).toHaveAttribute(
        'href',
        '/app/settings/verify?domain=dom-1',
      );
      expect(screen.getByLabelText('Plan usage')).toHaveTextContent(
        'Domains 1 of 5 · Subdomains 0 of 5 · Domains and subdomains 1 of 10 · Vanity subdomains 0 of 1',
      );
    },
  );
});

describe('settings/branded-domains: bought domains', () => {
  const bought = (domainId: string, domain: string, changes: Record<string, unknown>) => ({
    id: `p-${domainId}`,
    domain_id: domainId,
    order_id: `o-${domainId}`,
    renewal_order_id: null,
    domain,
    status: 'registered',
    problem: null,
    expires_at: '2027-11-26T10:00:00Z',
    refunded_at: null,
    renewal_stop: null,
    ...changes,
  });

  it(
    'says when a bought domain renews, and that one whose order was refunded only expires',
    ROOMY,
    async () => {
      const refunded = { ...DOMAIN, id: 'dom-2', domain: 'refunded.example' };
      const { backend } = open('/app/settings/branded-domains', subscribed(), [DOMAIN, refunded]);
      backend.table('purchased_domains', [
        bought('dom-1', 'links.example.com', {}),
        bought('dom-2', 'refunded.example', {
          problem:
            'The order was refunded: refunded.example is not renewed and expires on 2027-11-26.',
          renewal_stop: 'done',
        }),
      ]);
      const table = await screen.findByRole('table', { name: 'Domains' }, SLOW);
      const kept = within(table).getByRole('row', { name: /links\.example\.com/ });
      await waitFor(() => expect(kept).toHaveTextContent('Purchased · registered'), SLOW);
      expect(kept).toHaveTextContent('renews 2027-11-26');
      const lapsing = within(table).getByRole('row', { name: /refunded\.example/ });
      expect(lapsing).toHaveTextContent('Purchased · registered');
      expect(lapsing).toHaveTextContent('expires 2027-11-26');
      expect(lapsing).not.toHaveTextContent('renews');
      expect(
        within(lapsing).getByText(/The order was refunded: refunded\.example is not renewed/),
      ).toBeInTheDocument();
    },
  );
});

describe('Add Domain gates (link-creation 8)', () => {
  it('sends a user without a subscription to billing', ROOMY, async () => {
    const { router, user } = open('/app/settings/branded-domains', signedInWorld());
    await user.click(await screen.findByRole('button', { name: 'Add Domain' }, SLOW));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/subscription'));
    expect(await screen.findByText('This needs a subscription.')).toBeInTheDocument();
  });

  it('sends an unverified user to e-mail verification', ROOMY, async () => {
    const { router, user } = open(
      '/app/settings/branded-domains',
      signedInWorld({
        user: { id: 'u-unverified', email: 'u@example.com', emailConfirmed: false },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Add Domain' }, SLOW));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/email/verify'));
  });

  it('lets a subscriber in', ROOMY, async () => {
    const { router, user } = open('/app/settings/branded-domains');
    await user.click(await screen.findByRole('button', { name: 'Add Domain' }, SLOW));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/branded-domains/create'));
  });
});

describe('settings/branded-domains/create', () => {
  it(
    'checks the name and the confirmation, shows refusals under the field, then opens verification',
    ROOMY,
    async () => {
      const { backend, router, user } = open('/app/settings/branded-domains/create');
      expect(await heading('Add a domain')).toBeInTheDocument();
      const name = await screen.findByRole('textbox', { name: /Domain name/ }, SLOW);
      await user.type(name, 'not a domain');
      await user.click(screen.getByRole('button', { name: 'Add domain' }));
      expect(
        await screen.findByText('The domain must be a valid domain name.'),
      ).toBeInTheDocument();
      expect(screen.getByText(/Confirm that the domain will be used only/)).toBeInTheDocument();
      expect(backend.requestsTo('POST', '/rest/v1/domains')).toHaveLength(0);

      let answer = postgrestError(422, {
        message: 'domain_taken',
        details: 'This domain has already been taken.',
        hint: 'domain',
      });
      backend.on('POST', '/rest/v1/domains', () => answer);
      await user.clear(name);
      await user.type(name, 'https://Links.Example.com/');
      await user.click(screen.getByRole('checkbox', { name: /only for .* short links/ }));
      await user.click(screen.getByRole('button', { name: 'Add domain' }));
      expect(await screen.findByText('This domain has already been taken.')).toBeInTheDocument();
      const sent = (await backend.requestsTo('POST', '/rest/v1/domains')[0]!.json()) as unknown;
      expect(sent).toEqual({ domain: 'links.example.com', kind: 'branded', account_id: PERSONAL });

      answer = json({ id: 'dom-1', domain: 'links.example.com' }, { status: 201 });
      await user.click(screen.getByRole('button', { name: 'Add domain' }));
      await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/verify?domain=dom-1'));
    },
  );
});

describe('settings/verify', () => {
  it('shows the records to set with copy buttons, and checks again on demand', ROOMY, async () => {
    const { backend, user } = open('/app/settings/verify?domain=dom-1');
    expect(await heading('Verify a domain')).toBeInTheDocument();
    const ownership = await screen.findByRole('table', { name: 'Ownership' }, SLOW);
    expect(within(ownership).getByText('_shortlane-verification.links.example.com')).toBeVisible();
    expect(within(ownership).getByText('tok123')).toBeVisible();
    expect(within(ownership).getByRole('button', { name: 'Copy TXT value' })).toBeVisible();
    const cname = screen.getByRole('table', { name: 'Host: a CNAME' });
    expect(within(cname).getByText('redirect.shortlane.app')).toBeVisible();
    const apex = screen.getByRole('table', { name: /where a CNAME cannot be set/ });
    expect(within(apex).getByText('203.0.113.10')).toBeVisible();
    expect(within(apex).getByText('AAAA')).toBeVisible();
    expect(screen.getByText(/The TXT record was not found/)).toBeVisible();

    const before = backend.requestsTo('POST', '/functions/v1/domain-verify').length;
    expect(before).toBeGreaterThanOrEqual(1);
    await user.click(screen.getByRole('button', { name: 'Check now' }));
    await waitFor(() =>
      expect(backend.requestsTo('POST', '/functions/v1/domain-verify').length).toBe(before + 1),
    );
    expect(await backend.requestsTo('POST', '/functions/v1/domain-verify')[0]!.json()).toEqual({
      domain_id: 'dom-1',
    });
  });
});

describe('settings/edit/{domain}', () => {
  it(
    'gates the 404 redirect by plan, saves the root redirect, and deletes after confirmation',
    ROOMY,
    async () => {
      const { backend, router, user } = open('/app/settings/edit/links.example.com');
      expect(await heading('Domain settings')).toBeInTheDocument();
      const notFound = await screen.findByRole('textbox', { name: '404 redirect' }, SLOW);
      expect(notFound).toBeDisabled();
      expect(screen.getByText('Your plan does not include a 404 redirect.')).toBeVisible();

      backend.on('PATCH', '/rest/v1/domains', () => json([{ id: 'dom-1' }]));
      const root = screen.getByRole('textbox', { name: 'Root redirect' });
      await user.type(root, 'ftp://nope');
      await user.click(screen.getByRole('button', { name: 'Save redirects' }));
      expect(await screen.findByText(/must be a valid URL/)).toBeVisible();
      await user.clear(root);
      await user.type(root, 'https://example.com/home');
      await user.click(screen.getByRole('button', { name: 'Save redirects' }));
      await waitFor(() => expect(backend.requestsTo('PATCH', '/rest/v1/domains')).toHaveLength(1));
      expect(await backend.requestsTo('PATCH', '/rest/v1/domains')[0]!.json()).toEqual({
        root_redirect_url: 'https://example.com/home',
        not_found_redirect_url: null,
      });

      await user.click(screen.getByRole('button', { name: 'Delete domain' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete links.example.com?' });
      expect(within(dialog).getByText(/stop answering/)).toBeVisible();
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/branded-domains'));
      expect(await backend.requestsTo('PATCH', '/rest/v1/domains')[1]!.json()).toEqual({
        is_deleted: true,
      });
    },
  );
});

describe('settings/edit/{domain}: deleting while the lists refresh', () => {
  it(
    'goes back to the list with the notice, though the page learns of the deletion first',
    ROOMY,
    async () => {
      const { backend, router, user } = open('/app/settings/edit/links.example.com');
      expect(await heading('Domain settings')).toBeInTheDocument();
      let deleted = false;
      backend.on('PATCH', '/rest/v1/domains', () => {
        deleted = true;
        return json([{ id: 'dom-1' }]);
      });
      // After the deletion the page's own read answers at once (no such live domain), the
      // domain list only later: the page shows "not found" while the deletion still waits.
      backend.on('GET', '/rest/v1/domains', async (_request, url) => {
        const oneDomain = url.searchParams.has('domain') || url.searchParams.has('id');
        if (deleted && !oneDomain) await new Promise((done) => setTimeout(done, 300));
        return json(deleted ? [] : [DOMAIN]);
      });
      await user.click(await screen.findByRole('button', { name: 'Delete domain' }, SLOW));
      const dialog = await screen.findByRole('dialog', { name: 'Delete links.example.com?' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/branded-domains'), SLOW);
      expect(await screen.findByText('links.example.com deleted.')).toBeVisible();
    },
  );
});

describe('settings/create-subdomain', () => {
  it(
    'claims name.<base domain>, says refusals under the field, then lists it live',
    ROOMY,
    async () => {
      const { backend, router, user } = open('/app/settings/create-subdomain');
      backend.on('POST', '/rest/v1/rpc/vanity_base_domains', () =>
        json([
          { id: 'base-1', domain: 'shrt.example' },
          { id: 'base-2', domain: 'tiny.example' },
        ]),
      );
      expect(await heading('Add a vanity subdomain')).toBeInTheDocument();
      const label = await screen.findByRole('textbox', { name: 'Subdomain' }, SLOW);
      await user.click(screen.getByRole('button', { name: 'Claim subdomain' }));
      expect(await screen.findByText('Subdomain required.')).toBeVisible();
      await user.type(label, '-no');
      await user.click(screen.getByRole('button', { name: 'Claim subdomain' }));
      expect(await screen.findByText(/Use 3 to 63 letters, numbers and dashes/)).toBeVisible();
      expect(backend.requestsTo('POST', '/rest/v1/rpc/create_vanity_subdomain')).toHaveLength(0);

      // The database's refusals (reserved, taken, over the plan) show under the field.
      let answer = postgrestError(422, {
        message: 'subdomain_reserved',
        details: 'This subdomain is reserved.',
        hint: 'subdomain',
      });
      backend.on('POST', '/rest/v1/rpc/create_vanity_subdomain', () => answer);
      await user.clear(label);
      await user.type(label, 'Ada');
      await user.click(screen.getByRole('combobox', { name: 'Domain' }));
      await user.click(await screen.findByRole('option', { name: 'tiny.example' }));
      await user.click(screen.getByRole('button', { name: 'Claim subdomain' }));
      expect(await screen.findByText('This subdomain is reserved.')).toBeVisible();
      expect(
        await backend.requestsTo('POST', '/rest/v1/rpc/create_vanity_subdomain')[0]!.json(),
      ).toEqual({ p_account_id: PERSONAL, p_subdomain: 'ada', p_base_domain_id: 'base-2' });

      answer = json({ ...DOMAIN, id: 'dom-2', domain: 'ada.tiny.example' });
      await user.click(screen.getByRole('button', { name: 'Claim subdomain' }));
      await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/branded-domains'));
      expect(
        await screen.findByText('ada.tiny.example is yours and serves your short links now.'),
      ).toBeInTheDocument();
    },
  );

  it('points a plan without vanity subdomains to the plans', ROOMY, async () => {
    const backend = open('/app/settings/create-subdomain').backend;
    backend.on('POST', '/rest/v1/rpc/domain_accounts', () =>
      json([{ ...ACCOUNT, add_vanity_subdomains: false }]),
    );
    expect(
      await screen.findByRole('link', { name: 'See the plans that include them' }, SLOW),
    ).toHaveAttribute('href', '/app/settings/subscription');
    expect(screen.queryByRole('textbox', { name: 'Subdomain' })).toBeNull();
  });
});

describe('settings/create-tiny', () => {
  it(
    'offers a vanity subdomain, and says how many discounted domains the plan includes with the way to the domain search',
    ROOMY,
    async () => {
      const { backend } = open('/app/settings/create-tiny');
      backend.on('POST', '/rest/v1/rpc/vanity_base_domains', () =>
        json([{ id: 'base-1', domain: 'shrt.example' }]),
      );
      expect(await heading('Add a short domain')).toBeInTheDocument();
      const vanity = await screen.findByRole('region', { name: 'A vanity subdomain' }, SLOW);
      expect(
        await within(vanity).findByRole('textbox', { name: 'Subdomain' }, SLOW),
      ).toBeInTheDocument();
      expect(within(vanity).getByRole('button', { name: 'Claim subdomain' })).toBeEnabled();
      expect(screen.getByRole('region', { name: 'A discounted domain' })).toBeInTheDocument();
      expect(
        await screen.findByText(/Your plan includes 1 discounted domain:/, undefined, SLOW),
      ).toBeVisible();
      expect(screen.getByRole('link', { name: 'Search for a domain' })).toHaveAttribute(
        'href',
        '/app/purchase/domain',
      );
    },
  );
});
