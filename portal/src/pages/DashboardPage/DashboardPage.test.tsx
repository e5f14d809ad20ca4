import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, postgrestError, tableRows, TestBackend } from '../../test/backend.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import {
  ACCOUNT_ID,
  accountAnalyticsReport,
  signedInWorld,
  subscriptionRow,
} from '../../test/world.ts';
import { findLoadedDialog } from '../../test/dialogs.ts';

/** The personal account test/world.ts gives the signed-in user. */
const ALIASES = '/rest/v1/aliases';
/** A search within the account (search_links). */
const SEARCH = '/rest/v1/rpc/search_links';

function aliasRow(alias: string, overrides: Record<string, unknown> = {}) {
  return {
    id: `id-${alias}`,
    alias,
    status: 'active',
    expires_at: null,
    description: null,
    created_at: '2026-11-01T10:00:00Z',
    account_id: ACCOUNT_ID,
    organization_id: null,
    created_by: 'user',
    domain: { domain: 'pat-links.localhost' },
    long_url: { url: `https://example.com/${alias}` },
    alias_tags: [{ tag: { name: 'newsletter' } }, { tag: { name: 'launch' } }],
    ...overrides,
  };
}

const subscriber = () =>
  signedInWorld({
    subscriptions: [subscriptionRow()],
    accountFeatures: ['use_tags', 'manage_expiration'],
  });

/** Answers the list read with `rows` for active links and `archived` for archived ones. */
function linksBackend(rows: unknown[], archived: unknown[] = []) {
  return new TestBackend().on('GET', ALIASES, (_request, url) =>
    json(url.searchParams.get('status') === 'eq.archived' ? archived : rows),
  );
}

function listReads(backend: TestBackend): URLSearchParams[] {
  return backend.requestsTo('GET', ALIASES).map((request) => new URL(request.url).searchParams);
}

function searchReads(backend: TestBackend): URLSearchParams[] {
  return backend.requestsTo('POST', SEARCH).map((request) => new URL(request.url).searchParams);
}

/** Next page: its one link, post-last, shows. */
async function showNextPage(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Next page' }));
  expect(
    await screen.findByRole(
      'article',
      { name: 'pat-links.localhost/post-last' },
      { timeout: 10_000 },
    ),
  ).toBeVisible();
}

async function rpcBody(backend: TestBackend, name: string): Promise<unknown[]> {
  return Promise.all(
    backend.requestsTo('POST', `/rest/v1/rpc/${name}`).map((request) => request.json()),
  );
}

// Whole-app renders with menus and modals take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

describe('DashboardPage', () => {
  it("lists the user's active links, newest first, with their tags", async () => {
    const backend = linksBackend([aliasRow('spring-launch'), aliasRow('portfolio')]);
    renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    const card = await screen.findByRole('article', { name: 'pat-links.localhost/spring-launch' });
    expect(
      within(card).getByRole('link', { name: 'pat-links.localhost/spring-launch' }),
    ).toHaveAttribute('href', 'http://pat-links.localhost:54321/spring-launch');
    expect(within(card).getByText('https://example.com/spring-launch')).toBeVisible();
    expect(
      within(card)
        .getAllByText(/^(launch|newsletter)$/)
        .map((tag) => tag.textContent),
    ).toEqual(['launch', 'newsletter']);
    expect(
      within(card).getByRole('link', { name: 'Analytics of pat-links.localhost/spring-launch' }),
    ).toHaveAttribute('href', '/app/analytics/id-spring-launch');
    expect(screen.getByRole('article', { name: 'pat-links.localhost/portfolio' })).toBeVisible();

    const read = listReads(backend).at(-1)!;
    expect(read.get('account_id')).toBe(`eq.${ACCOUNT_ID}`);
    expect(read.get('status')).toBe('in.(active,no_affiliate,can_affiliate)');
    expect(read.get('or')).toMatch(/^\(expires_at\.is\.null,expires_at\.gt\./);
    expect(read.get('order')).toBe('created_at.desc,id.desc');
    expect(read.get('offset')).toBe('0');
    expect(read.get('limit')).toBe('26');
  });

  it('asks for the clicks while the account is still loading, and once', async () => {
    const backend = linksBackend([])
      .on('POST', '/rest/v1/rpc/account_analytics_access', () =>
        json({ account_id: ACCOUNT_ID, periods: ['last_24_hour'] }),
      )
      .on('POST', '/rest/v1/rpc/account_analytics', () =>
        json(
          accountAnalyticsReport({
            period: 'last_24_hour',
            from: '2026-11-21T16:00:00+00:00',
            to: '2026-11-22T16:00:00+00:00',
            unit: 'hour',
          }),
        ),
      );
    const { backend: scripted } = renderApp({
      route: '/app/dashboard',
      world: subscriber(),
      backend,
    });
    // The account answers only once the clicks have been asked for: the page, which waits for
    // the account, could not have asked; the route's prefetch does, as soon as the profile names
    // the personal account.
    let releaseAccount!: () => void;
    const accountHeld = new Promise<void>((resolve) => (releaseAccount = resolve));
    scripted.on('GET', '/rest/v1/accounts', async (request, url) => {
      await accountHeld;
      const account = { id: ACCOUNT_ID, kind: 'personal', name: 'Ada', features: ['use_tags'] };
      return tableRows([account])(request, url);
    });
    await waitFor(() =>
      expect(scripted.requestsTo('POST', '/rest/v1/rpc/account_analytics_access')).toHaveLength(1),
    );
    expect(screen.queryByRole('heading', { level: 1, name: 'Dashboard' })).toBeNull();
    releaseAccount();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    expect(await screen.findByText(/No clicks yet in the last 24 hours/)).toBeVisible();
    // The page found both answers in the cache: nothing was asked twice.
    expect(scripted.requestsTo('POST', '/rest/v1/rpc/account_analytics_access')).toHaveLength(1);
    expect(scripted.requestsTo('POST', '/rest/v1/rpc/account_analytics')).toHaveLength(1);
  });

  it('shows archived links on their own tab, kept in the address', async () => {
    const backend = linksBackend(
      [aliasRow('portfolio')],
      [aliasRow('summer-sale', { status: 'archived' })],
    );
    const { router, user } = renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    await screen.findByRole('article', { name: 'pat-links.localhost/portfolio' });
    await user.click(screen.getByRole('radio', { name: 'Archived' }));
    expect(
      await screen.findByRole('article', { name: 'pat-links.localhost/summer-sale' }),
    ).toBeVisible();
    expect(screen.queryByRole('article', { name: 'pat-links.localhost/portfolio' })).toBeNull();
    expect(currentUrl(router)).toBe('/app/dashboard?state=archived');
    expect(listReads(backend).at(-1)!.get('status')).toBe('eq.archived');
  });

  it('searches by type:query in search_links and says when nothing matches', async () => {
    const backend = linksBackend([aliasRow('spring-launch')]);
    const { router, user } = renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    await screen.findByRole('article', { name: 'pat-links.localhost/spring-launch' });

    backend.on('POST', SEARCH, () => json([]));
    await user.type(screen.getByRole('textbox', { name: 'Search links' }), 'tag:Launch');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No active links match “tag:Launch”.')).toBeVisible();
    expect(currentUrl(router)).toBe('/app/dashboard?q=tag%3ALaunch');
    // The same columns as the list, newest first.
    const read = searchReads(backend).at(-1)!;
    expect(read.get('select')).toContain('alias_tags(tag:tags(name))');
    expect(read.get('order')).toBe('created_at.desc,id.desc');

    backend.on('POST', SEARCH, () => json([aliasRow('spring-launch')]));
    await user.clear(screen.getByRole('textbox', { name: 'Search links' }));
    await user.type(screen.getByRole('textbox', { name: 'Search links' }), 'spring');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(
      await screen.findByRole('article', { name: 'pat-links.localhost/spring-launch' }),
    ).toBeVisible();
    const search = { p_account_id: ACCOUNT_ID, p_state: 'active', p_limit: 26 };
    expect(await rpcBody(backend, 'search_links')).toEqual([
      { ...search, p_query: 'launch', p_field: 'tag' },
      { ...search, p_query: 'spring', p_field: 'any' },
    ]);
    // The unsearched list is the only read of the aliases table.
    expect(listReads(backend)).toHaveLength(1);
  });

  it('pages a search by keyset: page 2 starts after page 1’s last link', async () => {
    const rows = Array.from({ length: 26 }, (_, index) =>
      aliasRow(`post-${index}`, { created_at: `2026-11-01T10:00:${String(59 - index)}.123456Z` }),
    );
    const backend = new TestBackend().on('POST', SEARCH, async (request) => {
      const body = (await request.clone().json()) as { p_after_id?: string };
      return json(body.p_after_id == null ? rows : [aliasRow('post-last')]);
    });
    const { router, user } = renderApp({
      route: '/app/dashboard?state=archived&q=url%3Apost',
      world: subscriber(),
      backend,
    });
    await screen.findByRole('article', { name: 'pat-links.localhost/post-0' });
    expect(screen.getAllByRole('article')).toHaveLength(25);
    await showNextPage(user);
    expect(currentUrl(router)).toBe('/app/dashboard?state=archived&q=url%3Apost&page=2');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    const first = {
      p_account_id: ACCOUNT_ID,
      p_query: 'post',
      p_field: 'url',
      p_state: 'archived',
    };
    expect(await rpcBody(backend, 'search_links')).toEqual([
      { ...first, p_limit: 26 },
      {
        ...first,
        p_limit: 26,
        p_after_created_at: '2026-11-01T10:00:35.123456Z',
        p_after_id: 'id-post-24',
      },
    ]);
    expect(listReads(backend)).toHaveLength(0);
  });

  it('opens a search on page 3 by reading pages 1 and 2 for the cursor', async () => {
    const page = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => aliasRow(`p-${from + index}`));
    const backend = new TestBackend().on('POST', SEARCH, async (request) => {
      const body = (await request.clone().json()) as { p_after_id?: string };
      if (body.p_after_id == null) return json(page(0, 26));
      if (body.p_after_id === 'id-p-24') return json(page(25, 26));
      return json(page(50, 3));
    });
    renderApp({ route: '/app/dashboard?q=spring&page=3', world: subscriber(), backend });
    expect(await screen.findByRole('article', { name: 'pat-links.localhost/p-52' })).toBeVisible();
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(
      (await rpcBody(backend, 'search_links')).map(
        (body) => (body as { p_after_id?: string }).p_after_id,
      ),
    ).toEqual([undefined, 'id-p-24', 'id-p-49']);
  });

  it('goes back a page when the search ended before the page the address asks for', async () => {
    const backend = new TestBackend().on('POST', SEARCH, () =>
      json([aliasRow('only-one'), aliasRow('only-two')]),
    );
    const { router } = renderApp({
      route: '/app/dashboard?q=only&page=2',
      world: subscriber(),
      backend,
    });
    expect(
      await screen.findByRole('article', { name: 'pat-links.localhost/only-two' }),
    ).toBeVisible();
    await waitFor(() => expect(currentUrl(router)).toBe('/app/dashboard?q=only&page=1'));
    // Page 1 said there is no page 2: page 2 was not asked for.
    expect(
      (await rpcBody(backend, 'search_links')).map(
        (body) => (body as { p_after_id?: string }).p_after_id,
      ),
    ).toEqual([undefined]);
  });

  it('turns the create redirect (?alias=…&active=true) into a search for the new alias', async () => {
    const backend = linksBackend([aliasRow('fresh')]).on('POST', SEARCH, () =>
      json([aliasRow('fresh')]),
    );
    const { router } = renderApp({
      route: '/app/dashboard?alias=fresh&active=true',
      world: subscriber(),
      backend,
    });
    await screen.findByRole('article', { name: 'pat-links.localhost/fresh' });
    expect(currentUrl(router)).toBe('/app/dashboard?q=alias%3Afresh');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Search links' })).toHaveValue('alias:fresh'),
    );
    // The list waits for the address: its only read is the search, none unfiltered first.
    expect(listReads(backend)).toHaveLength(0);
    expect(await rpcBody(backend, 'search_links')).toEqual([
      {
        p_account_id: ACCOUNT_ID,
        p_query: 'fresh',
        p_field: 'alias',
        p_state: 'active',
        p_limit: 26,
      },
    ]);
  });

  it('pages through the list', async () => {
    const rows = Array.from({ length: 26 }, (_, index) => aliasRow(`post-${index}`));
    const backend = new TestBackend().on('GET', ALIASES, (_request, url) =>
      json(url.searchParams.get('offset') === '0' ? rows : [aliasRow('post-last')]),
    );
    const { router, user } = renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    await screen.findByRole('article', { name: 'pat-links.localhost/post-0' });
    expect(screen.getAllByRole('article')).toHaveLength(25);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await showNextPage(user);
    expect(currentUrl(router)).toBe('/app/dashboard?page=2');
    expect(listReads(backend).at(-1)!.get('offset')).toBe('25');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('says why the list could not load', async () => {
    const backend = new TestBackend().on('GET', ALIASES, () =>
      postgrestError(400, { code: 'PGRST100', message: 'failed to parse filter' }),
    );
    renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    // The global handler's notice says something went wrong; the list says what the server said.
    const alert = (await screen.findByText('The links could not be loaded')).closest(
      '[role="alert"]',
    );
    expect(alert).toHaveTextContent('failed to parse filter');
  });

  it('says why a search could not load, and tries it again', async () => {
    let failing = true;
    const backend = new TestBackend().on('POST', SEARCH, () =>
      failing
        ? postgrestError(500, { code: '57014', message: 'canceling statement due to timeout' })
        : json([aliasRow('spring-launch')]),
    );
    const { user } = renderApp({ route: '/app/dashboard?q=spring', world: subscriber(), backend });
    const alert = (await screen.findByText('The links could not be loaded')).closest(
      '[role="alert"]',
    );
    expect(alert).toHaveTextContent('canceling statement due to timeout');
    failing = false;
    await user.click(within(alert as HTMLElement).getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('article', { name: 'pat-links.localhost/spring-launch' }),
    ).toBeVisible();
  });

  it('edits a link and shows the server refusal under the field it concerns', async () => {
    const backend = linksBackend([aliasRow('spring-launch')]).on(
      'POST',
      '/rest/v1/rpc/update_link',
      () =>
        postgrestError(422, {
          message: 'alias_taken',
          details: 'The new alias is not unique',
          hint: 'alias',
        }),
    );
    const { user } = renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    await user.click(
      await screen.findByRole('button', {
        name: 'More actions for pat-links.localhost/spring-launch',
      }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await findLoadedDialog('Edit pat-links.localhost/spring-launch');
    const alias = within(dialog).getByRole('textbox', { name: 'Alias' });
    await user.clear(alias);
    await user.type(alias, 'portfolio');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    expect(await within(dialog).findByText('The new alias is not unique')).toBeVisible();
    expect(alias).toHaveAttribute('aria-invalid', 'true');
    expect(await rpcBody(backend, 'update_link')).toEqual([
      { p_alias_id: 'id-spring-launch', p_alias: 'portfolio' },
    ]);

    backend.on('POST', '/rest/v1/rpc/update_link', () =>
      postgrestError(404, {
        message: 'alias_not_found',
        details: 'Alias not found',
        hint: 'alias',
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('Alias not found')).toBeVisible();
  });

  it('checks an edit before sending it, and saves a valid one', async () => {
    const backend = linksBackend([aliasRow('spring-launch')]).on(
      'POST',
      '/rest/v1/rpc/update_link',
      () => json({ url: 'https://example.com/spring-launch', aliases: [] }),
    );
    const { user } = renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    await user.click(
      await screen.findByRole('button', {
        name: 'More actions for pat-links.localhost/spring-launch',
      }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await findLoadedDialog('Edit pat-links.localhost/spring-launch');
    const tags = within(dialog).getByRole('combobox', { name: 'Tags' });
    await user.type(tags, 'x{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(dialog).findByText('x: The tag must be at least 2 characters.'),
    ).toBeVisible();
    expect(backend.requestsTo('POST', '/rest/v1/rpc/update_link')).toHaveLength(0);

    await user.type(tags, '{Backspace}Q4 Campaign{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await rpcBody(backend, 'update_link')).toEqual([
      { p_alias_id: 'id-spring-launch', p_tags: ['launch', 'newsletter', 'q4campaign'] },
    ]);
    expect(await screen.findByText('The link was saved.')).toBeVisible();
  });

  it('archives a link and restores an archived one', async () => {
    const backend = linksBackend(
      [aliasRow('portfolio')],
      [aliasRow('summer-sale', { status: 'archived' })],
    ).on('POST', '/rest/v1/rpc/archive_link', () => json({ url: 'x', aliases: [] }));
    const { user } = renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    await user.click(
      await screen.findByRole('button', { name: 'More actions for pat-links.localhost/portfolio' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Archive' }));
    expect(await screen.findByText('pat-links.localhost/portfolio was archived.')).toBeVisible();

    await user.click(screen.getByRole('radio', { name: 'Archived' }));
    await user.click(
      await screen.findByRole('button', {
        name: 'More actions for pat-links.localhost/summer-sale',
      }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Restore' }));
    expect(
      await screen.findByText('pat-links.localhost/summer-sale is active again.'),
    ).toBeVisible();
    expect(await rpcBody(backend, 'archive_link')).toEqual([
      { p_alias_id: 'id-portfolio', p_archived: true },
      { p_alias_id: 'id-summer-sale', p_archived: false },
    ]);
  });

  it('deletes a link only once confirmed', async () => {
    const backend = linksBackend([aliasRow('typo-link')]).on(
      'POST',
      '/rest/v1/rpc/delete_link',
      () => new Response(null, { status: 204 }),
    );
    const { user } = renderApp({ route: '/app/dashboard', world: subscriber(), backend });
    const openDelete = async () => {
      await user.click(
        await screen.findByRole('button', {
          name: 'More actions for pat-links.localhost/typo-link',
        }),
      );
      await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
      return findLoadedDialog('Delete link');
    };
    await user.click(within(await openDelete()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.requestsTo('POST', '/rest/v1/rpc/delete_link')).toHaveLength(0);

    await user.click(within(await openDelete()).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('pat-links.localhost/typo-link was deleted.')).toBeVisible();
    expect(await rpcBody(backend, 'delete_link')).toEqual([{ p_alias_id: 'id-typo-link' }]);
  });
});
