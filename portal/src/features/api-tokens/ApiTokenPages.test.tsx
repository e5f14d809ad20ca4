import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { findLoadedDialog } from '../../test/dialogs.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { createTestServices, sessionBody, startSession } from '../../test/services.ts';
import { signedInWorld, TEST_USER_ID, type TestWorld } from '../../test/world.ts';

const EMAIL = 'ada@example.com';
const PERSONAL_ACCOUNT = '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21';
const TEAM_ACCOUNT = 'a4b1f0de-7c0e-4c59-9d43-3c5a8f1e2b77';
// The first render loads the route table's modules: slow on a busy machine.
const SLOW = { timeout: 10_000 };
const ROOMY = { timeout: 30_000 };

const TOKEN = {
  id: 'tok-1',
  name: 'Deploy script',
  token_prefix: 'slt_0a1b2c',
  abilities: ['links:read', 'links:write'],
  created_at: '2026-11-20T10:00:00Z',
  last_used_at: null as string | null,
  expires_at: null as string | null,
};

interface Scene {
  tokens?: (typeof TOKEN)[];
  world?: TestWorld;
  credits?: { used: number; limit: number | null };
}

/** A signed-in user (a real session, so a 423 can be confirmed) on one of the token pages. */
async function open(route: string, scene: Scene = {}) {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  await startSession(testServices, backend, { id: TEST_USER_ID, email: EMAIL });
  let tokens = scene.tokens ?? [];
  const rendered = renderApp({
    route,
    world: scene.world ?? signedInWorld(),
    backend,
    testServices,
  });
  backend.on('GET', '/rest/v1/api_tokens', () => json(tokens));
  backend.on('POST', '/rest/v1/rpc/api_credits', () =>
    json(scene.credits ?? { used: 50, limit: 500 }),
  );
  return {
    ...rendered,
    setTokens: (next: (typeof TOKEN)[]) => {
      tokens = next;
    },
  };
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name }, SLOW);

describe('settings/api: the token list', () => {
  it(
    'lists name, prefix, abilities, dates and the credits left; never a secret',
    ROOMY,
    async () => {
      const { backend } = await open('/app/settings/api', {
        tokens: [
          TOKEN,
          {
            ...TOKEN,
            id: 'tok-2',
            name: 'Old report',
            abilities: ['analytics:read'],
            last_used_at: '2026-11-21T08:30:00Z',
            expires_at: '2020-01-01T00:00:00Z',
          },
        ],
      });
      expect(await heading('API tokens')).toBeInTheDocument();
      const table = await screen.findByRole('table', { name: 'API tokens' });
      const deploy = within(table).getByRole('row', { name: /Deploy script/ });
      expect(within(deploy).getByText('slt_0a1b2c…')).toBeInTheDocument();
      expect(within(deploy).getByText('Links: read')).toBeInTheDocument();
      expect(within(deploy).getByText('Links: write')).toBeInTheDocument();
      expect(within(deploy).getAllByText('Never')).toHaveLength(2);
      const old = within(table).getByRole('row', { name: /Old report/ });
      expect(within(old).getByText('Analytics: read')).toBeInTheDocument();
      expect(within(old).getByText('Expired')).toBeInTheDocument();
      expect(within(old).queryByText('Never')).toBeNull();
      expect(await screen.findByText('450 of 500 left')).toBeInTheDocument();

      const list = new URL(backend.requestsTo('GET', '/rest/v1/api_tokens')[0]!.url);
      expect(list.searchParams.get('account_id')).toBe(`eq.${PERSONAL_ACCOUNT}`);
      expect(list.searchParams.get('select')).not.toMatch(/hash/);
      expect(screen.getByRole('link', { name: 'New API token' })).toHaveAttribute(
        'href',
        '/app/settings/api/new',
      );
    },
  );

  it(
    'says when there is no token yet, and that unlimited plans have no credit count',
    ROOMY,
    async () => {
      await open('/app/settings/api', { credits: { used: 3, limit: null } });
      expect(await screen.findByText(/No API tokens yet/, {}, SLOW)).toBeInTheDocument();
      expect(await screen.findByText('Unlimited')).toBeInTheDocument();
    },
  );

  it('offers to try again when the tokens cannot be loaded', ROOMY, async () => {
    const { backend, user } = await open('/app/settings/api');
    let failing = true;
    backend.on('GET', '/rest/v1/api_tokens', () =>
      failing ? postgrestError(500, { message: 'boom' }) : json([TOKEN]),
    );
    expect(await screen.findByText('The API tokens could not be loaded', {}, SLOW)).toBeVisible();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('row', { name: /Deploy script/ })).toBeInTheDocument();
  });
});

describe('settings/api/new', () => {
  it(
    'asks for the password (423), then shows the secret once with a Copy button',
    ROOMY,
    async () => {
      const { backend, user, router } = await open('/app/settings/api/new');
      let confirmed = false;
      backend.on('POST', '/auth/v1/logout', () => new Response(null, { status: 204 }));
      backend.on('POST', '/auth/v1/token', () => {
        confirmed = true;
        return json(
          sessionBody(
            { id: TEST_USER_ID, email: EMAIL },
            { amr: [{ method: 'password', timestamp: 2 }] },
          ),
        );
      });
      backend.on('POST', '/rest/v1/rpc/create_api_token', () =>
        confirmed
          ? json({
              id: 'tok-9',
              token: `slt_${'ab'.repeat(24)}`,
              token_prefix: 'slt_ababab',
              name: 'CI',
            })
          : postgrestError(423, {
              message: 'password_confirmation_required',
              details: 'Password confirmation required.',
              hint: 'form',
            }),
      );
      expect(await heading('New API token')).toBeInTheDocument();
      await user.type(screen.getByRole('textbox', { name: /Name/ }), '  CI  ');
      await user.click(screen.getByRole('checkbox', { name: /Links: write/ }));
      await user.selectOptions(screen.getByRole('combobox', { name: /Expires/ }), 'In 30 days');
      await user.click(screen.getByRole('button', { name: 'Create token' }));

      const dialog = await findLoadedDialog('Confirm your password');
      await user.type(within(dialog).getByLabelText('Password'), 'password123');
      await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

      const secretHeading = await heading('Your new API token');
      await waitFor(() => expect(secretHeading).toHaveFocus());
      expect(screen.getByText(/you won’t see it again/)).toBeInTheDocument();
      expect(screen.getByText(`slt_${'ab'.repeat(24)}`)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Copy API token' })).toBeInTheDocument();

      const calls = backend.requestsTo('POST', '/rest/v1/rpc/create_api_token');
      expect(calls).toHaveLength(2);
      const body = (await calls[1]!.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        p_name: 'CI',
        p_abilities: ['links:read', 'links:write'],
        p_account_id: PERSONAL_ACCOUNT,
      });
      const days = (Date.parse(String(body.p_expires_at)) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThan(30.1);

      await user.click(screen.getByRole('button', { name: 'Done' }));
      await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/api'));
    },
  );

  it(
    'checks the name and abilities first, and shows the server’s refusal on its field',
    ROOMY,
    async () => {
      const { backend, user } = await open('/app/settings/api/new');
      backend.on('POST', '/rest/v1/rpc/create_api_token', () =>
        postgrestError(422, {
          message: 'name_too_long',
          details: 'The name must not be greater than 100 characters.',
          hint: 'name',
        }),
      );
      expect(await heading('New API token')).toBeInTheDocument();
      await user.click(screen.getByRole('checkbox', { name: /Links: read/ }));
      await user.click(screen.getByRole('button', { name: 'Create token' }));
      expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
      expect(screen.getByText('Choose at least one ability.')).toBeInTheDocument();
      expect(backend.requestsTo('POST', '/rest/v1/rpc/create_api_token')).toHaveLength(0);

      await user.type(screen.getByRole('textbox', { name: /Name/ }), 'CI');
      await user.click(screen.getByRole('checkbox', { name: /Bulk/ }));
      await user.click(screen.getByRole('button', { name: 'Create token' }));
      expect(
        await screen.findByText('The name must not be greater than 100 characters.'),
      ).toBeInTheDocument();
      expect(screen.getByRole('textbox', { name: /Name/ })).toHaveAttribute('aria-invalid', 'true');
    },
  );
});

describe('settings/api/edit/{tokenId}', () => {
  it('renames a token and changes its abilities, then goes back to the list', ROOMY, async () => {
    const { backend, user, router, setTokens } = await open('/app/settings/api/edit/tok-1', {
      tokens: [TOKEN],
    });
    backend.on('POST', '/rest/v1/rpc/update_api_token', async (request) => {
      const body = (await request.json()) as { p_name: string; p_abilities: string[] };
      setTokens([{ ...TOKEN, name: body.p_name, abilities: body.p_abilities }]);
      return json({ id: 'tok-1', name: body.p_name, abilities: body.p_abilities });
    });
    expect(await heading('Edit API token')).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: /Name/ });
    expect(name).toHaveValue('Deploy script');
    expect(screen.queryByRole('combobox', { name: /Expires/ })).toBeNull();
    await user.clear(name);
    await user.type(name, 'Reports');
    await user.click(screen.getByRole('checkbox', { name: /Links: write/ }));
    await user.click(screen.getByRole('checkbox', { name: /Analytics: read/ }));
    await user.click(screen.getByRole('button', { name: 'Save token' }));

    await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/api'));
    const body = (await backend
      .requestsTo('POST', '/rest/v1/rpc/update_api_token')[0]!
      .json()) as Record<string, unknown>;
    expect(body).toEqual({
      p_token_id: 'tok-1',
      p_name: 'Reports',
      p_abilities: ['links:read', 'analytics:read'],
    });
    expect(await screen.findByRole('row', { name: /Reports/ })).toBeInTheDocument();
  });

  it('says so when the token is not there (revoked meanwhile)', ROOMY, async () => {
    await open('/app/settings/api/edit/gone', { tokens: [TOKEN] });
    expect(await screen.findByText('API token not found.', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the API tokens' })).toHaveAttribute(
      'href',
      '/app/settings/api',
    );
  });
});

describe('revoking', () => {
  it('confirms first, revokes, and puts the focus back on the page', ROOMY, async () => {
    const { backend, user, setTokens } = await open('/app/settings/api', { tokens: [TOKEN] });
    backend.on('POST', '/rest/v1/rpc/revoke_api_token', () => {
      setTokens([]);
      return new Response(null, { status: 204 });
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke Deploy script' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    expect(within(dialog).getByText(/cannot be undone/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(backend.requestsTo('POST', '/rest/v1/rpc/revoke_api_token')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke Deploy script' }));
    const again = await screen.findByRole('dialog', { name: 'Revoke API token' });
    await user.click(within(again).getByRole('button', { name: 'Revoke token' }));
    expect(await screen.findByText(/No API tokens yet/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveFocus());
    const call = backend.requestsTo('POST', '/rest/v1/rpc/revoke_api_token')[0]!;
    expect(await call.json()).toEqual({ p_token_id: 'tok-1' });
  });
});

describe('revoking without a recent password', () => {
  it('asks for the password (423) and retries the revocation', ROOMY, async () => {
    const { backend, user, setTokens } = await open('/app/settings/api', { tokens: [TOKEN] });
    let confirmed = false;
    backend.on('POST', '/auth/v1/logout', () => new Response(null, { status: 204 }));
    backend.on('POST', '/auth/v1/token', () => {
      confirmed = true;
      return json(sessionBody({ id: TEST_USER_ID, email: EMAIL }));
    });
    backend.on('POST', '/rest/v1/rpc/revoke_api_token', () => {
      if (!confirmed) {
        return postgrestError(423, {
          message: 'password_confirmation_required',
          details: 'Password confirmation required.',
          hint: 'form',
        });
      }
      setTokens([]);
      return new Response(null, { status: 204 });
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke Deploy script' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke token' }));
    const password = await findLoadedDialog('Confirm your password');
    await user.type(within(password).getByLabelText('Password'), 'password123');
    await user.click(within(password).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(/No API tokens yet/)).toBeInTheDocument();
    expect(backend.requestsTo('POST', '/rest/v1/rpc/revoke_api_token')).toHaveLength(2);
  });
});

describe('the team’s API pages', () => {
  it('show the team account’s tokens with the team’s own links', ROOMY, async () => {
    const { backend } = await open('/app/organization/acme/team/marketing/api', {
      tokens: [TOKEN],
      world: signedInWorld({
        accountFeatures: ['support_teams'],
        teamsBySlug: [{ id: 'team-1', name: 'Marketing', account_id: TEAM_ACCOUNT }],
      }),
    });
    expect(await heading('API tokens of Marketing')).toBeInTheDocument();
    expect(await screen.findByRole('row', { name: /Deploy script/ })).toBeInTheDocument();
    const list = new URL(backend.requestsTo('GET', '/rest/v1/api_tokens')[0]!.url);
    expect(list.searchParams.get('account_id')).toBe(`eq.${TEAM_ACCOUNT}`);
    const credits = backend.requestsTo('POST', '/rest/v1/rpc/api_credits')[0]!;
    expect(await credits.json()).toEqual({ p_account_id: TEAM_ACCOUNT });
    expect(screen.getByRole('link', { name: 'New API token' })).toHaveAttribute(
      'href',
      '/app/organization/acme/team/marketing/api/new',
    );
    expect(screen.getByRole('link', { name: 'Edit Deploy script' })).toHaveAttribute(
      'href',
      '/app/organization/acme/team/marketing/api/edit/tok-1',
    );
  });

  it('create the token for the team’s account', ROOMY, async () => {
    const { backend, user } = await open('/app/organization/acme/team/marketing/api/new', {
      world: signedInWorld({
        accountFeatures: ['support_teams'],
        teamsBySlug: [{ id: 'team-1', name: 'Marketing', account_id: TEAM_ACCOUNT }],
      }),
    });
    backend.on('POST', '/rest/v1/rpc/create_api_token', () =>
      json({ id: 'tok-9', token: 'slt_team', token_prefix: 'slt_team', name: 'CI' }),
    );
    expect(await heading('New API token')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'CI');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('slt_team')).toBeInTheDocument();
    const call = backend.requestsTo('POST', '/rest/v1/rpc/create_api_token')[0]!;
    expect(await call.json()).toMatchObject({ p_account_id: TEAM_ACCOUNT });
  });
});
