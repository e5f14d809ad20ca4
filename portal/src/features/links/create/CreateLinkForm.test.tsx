import { act, screen, waitFor, within } from '@testing-library/react';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rem } from '@mantine/core';
import { json, tableRows, TestBackend } from '../../../test/backend.ts';
import { renderApp, render } from '../../../test/render.tsx';
import { signedInWorld, type TestWorld } from '../../../test/world.ts';
import { clearGuestHistory, readGuestHistory } from '../guestHistory.ts';
import { CREATE_FORM_BODY_HEIGHT } from './CreateFormLoading.tsx';
import { CreateLinkForm } from './CreateLinkForm.tsx';
import { domainRow } from './testing.ts';
import { findLoadedDialog } from '../../../test/dialogs.ts';

const DOMAINS = [
  domainRow('tiny.test', { allow_for_guests: true }),
  domainRow('go.test', { require_email_verification: true }),
  domainRow('old.test', { allow_for_guests: true, is_disabled: true }),
  domainRow('shrt.test', { allow_for_guests: true, guest_can_use_custom_alias: true }),
];

const CREATED = [
  {
    url: 'https://example.com/page',
    aliases: [
      {
        domain: 'shrt.test',
        alias: 'abc123',
        tiny_url: 'https://shrt.test/abc123',
        is_main: true,
        tags: [],
        affiliates: [],
      },
    ],
  },
];

const CREATE_PATH = '/functions/v1/links/url/create';

// Whole-form tests with Mantine's comboboxes and modals take seconds each in jsdom.
vi.setConfig({ testTimeout: 30_000 });

function renderForm(world: TestWorld, backend = new TestBackend()) {
  return render(<CreateLinkForm mode="home" />, {
    world: { domains: DOMAINS, ...world },
    backend,
  });
}

async function formRegion() {
  const region = await screen.findByRole('region', { name: 'Shorten a link' });
  await within(region).findByLabelText(/Long URL/);
  return region;
}

afterEach(() => clearGuestHistory());

describe('CreateLinkForm for a guest', () => {
  it('keeps the room of the form while its domains load, so the page under it stays put', async () => {
    const backend = new TestBackend();
    renderForm({}, backend);
    const held: (() => void)[] = [];
    // Scripted after the world, so it wins: the domains arrive when the test says.
    backend.on(
      'GET',
      '/rest/v1/domains',
      (request, url) =>
        new Promise<Response>((resolve) => {
          held.push(() => void Promise.resolve(tableRows(DOMAINS)(request, url)).then(resolve));
        }),
    );
    const region = await screen.findByRole('region', { name: 'Shorten a link' });
    await waitFor(() => expect(held.length).toBeGreaterThan(0));
    const frame = within(region).getByRole('status');
    expect(frame).toHaveTextContent('Loading the create form');
    expect(frame.style.minHeight).toBe(rem(CREATE_FORM_BODY_HEIGHT));

    for (const answer of held) answer();
    expect(await within(region).findByLabelText(/Long URL/)).toBeVisible();
    expect(within(region).queryByText('Loading the create form')).toBeNull();
  });

  it('offers guest domains, waits for the bot check, sends its token and remembers the link', async () => {
    const backend = new TestBackend()
      .on('POST', '/sandbox/hcaptcha/token', () =>
        json({ success: true, response: 'P1_token', sitekey: 'x', expires_in_ms: 299_999 }),
      )
      .on('POST', CREATE_PATH, () => json(CREATED));
    const { user } = renderForm({}, backend);
    const form = await formRegion();

    // Sorted, the first guest domain chosen; disabled domains hidden; locked ones explained.
    const domain = within(form).getByRole('combobox', { name: 'Domain' });
    await waitFor(() => expect(domain).toHaveValue('shrt.test'));
    await user.click(domain);
    const options = await screen.findAllByRole('option', { hidden: true });
    expect(options.map((option) => option.textContent)).toEqual([
      'go.test— This domain is not available to guest users.',
      'shrt.test',
      'tiny.test',
    ]);
    await user.keyboard('{Escape}');

    await user.type(within(form).getByLabelText(/Long URL/), 'https://example.com/page');
    const submit = within(form).getByRole('button', { name: 'Shorten URL' });
    expect(submit).toBeDisabled();
    await user.click(within(form).getByLabelText('I am human'));
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);

    expect(await screen.findByText('http://shrt.test:54321/abc123')).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', CREATE_PATH);
    expect(await request!.json()).toEqual({
      url: 'https://example.com/page',
      domain: 'shrt.test',
      alias: null,
      description: null,
      tags: [],
      expires_at: null,
      anti_robot_token: 'P1_token',
      ccpa_accepted: false,
      team: null,
    });
    expect(readGuestHistory()).toEqual([
      expect.objectContaining({
        alias: 'abc123',
        domain: 'shrt.test',
        longUrl: 'https://example.com/page',
      }),
    ]);
  });

  it('shows refusals under their fields, refocuses the URL and asks for the bot check again', async () => {
    const backend = new TestBackend()
      .on('POST', '/sandbox/hcaptcha/token', () => json({ success: true, response: 'P1_token' }))
      .on('POST', CREATE_PATH, () =>
        json(
          {
            code: 'validation_failed',
            message: 'This URL is not allowed.',
            errors: {
              url: ['This URL is not allowed.', 'The url must be a valid URL.'],
              alias: ['This alias is reserved.'],
              ccpa_accepted: ['The ccpa accepted field must be accepted.'],
            },
          },
          { status: 422 },
        ),
      );
    const { user } = renderForm({}, backend);
    const form = await formRegion();
    const url = within(form).getByLabelText(/Long URL/);
    await user.type(url, 'https://example.com/x');
    await user.click(within(form).getByLabelText('I am human'));
    const submit = within(form).getByRole('button', { name: 'Shorten URL' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);

    expect(await within(form).findByText('This URL is not allowed.')).toBeInTheDocument();
    expect(within(form).queryByText('The url must be a valid URL.')).toBeNull();
    expect(within(form).getByText('This alias is reserved.')).toBeInTheDocument();
    await waitFor(() => expect(url).toHaveFocus());
    expect(within(form).getByLabelText('I am human')).not.toBeChecked();
    // The region demands CCPA: the box appears, and the form waits for it and the bot check.
    const ccpa = within(form).getByLabelText(/CCPA/);
    expect(submit).toBeDisabled();
    await user.click(ccpa);
    await user.click(within(form).getByLabelText('I am human'));
    await waitFor(() => expect(submit).toBeEnabled());
  });

  it('says so on the form when the address has created too many links', async () => {
    const backend = new TestBackend()
      .on('POST', '/sandbox/hcaptcha/token', () => json({ success: true, response: 'P1_token' }))
      .on('POST', CREATE_PATH, () =>
        json(
          {
            code: 'too_many_attempts',
            message: MESSAGES.tooManyAttempts,
            errors: { form: [MESSAGES.tooManyAttempts] },
          },
          { status: 429, headers: { 'retry-after': '3599' } },
        ),
      );
    const { user } = renderForm({}, backend);
    const form = await formRegion();
    await user.type(within(form).getByLabelText(/Long URL/), 'https://example.com/x');
    await user.click(within(form).getByLabelText('I am human'));
    const submit = within(form).getByRole('button', { name: 'Shorten URL' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);

    expect(await within(form).findByText(MESSAGES.tooManyAttempts)).toBeInTheDocument();
    expect(readGuestHistory()).toEqual([]);
  });
});

describe('CreateLinkForm for a signed-in user', () => {
  const world = signedInWorld({ accountFeatures: ['create_tiny_url', 'use_tags'] });

  it('lower-cases tags, drops spaces and says which tag is wrong', async () => {
    const { user } = renderForm(world);
    const form = await formRegion();
    const tags = within(form).getByRole('combobox', { name: 'Tags' });
    await user.type(tags, 'Big Sale,a,bigsale,');
    expect(within(form).getByText('“a”: The tag must be at least 2 characters.')).toBeVisible();
    expect(within(form).getByText('“bigsale”: The tag has already been taken.')).toBeVisible();
    expect(within(form).getAllByText('bigsale')).toHaveLength(2);
  });

  it('refuses the UTM toggle without a URL, with the spec message', async () => {
    const { user } = renderForm(world);
    const form = await formRegion();
    await user.click(within(form).getByRole('button', { name: 'Advanced options' }));
    const toggle = await within(form).findByRole('switch', { name: 'Add UTM parameters' });
    await user.click(toggle);
    expect(within(form).getByText('The URL field is required.')).toBeVisible();
    expect(toggle).not.toBeChecked();
  });

  it('offers Single and Bulk only to users who may bulk-create', async () => {
    renderForm(world);
    const form = await formRegion();
    expect(within(form).queryByRole('radio', { name: 'Bulk' })).toBeNull();
  });

  it('asks before spending credits, and sends nothing when declined', async () => {
    const backend = new TestBackend()
      .on('POST', '/rest/v1/rpc/account_limits', () =>
        json({
          max_active_aliases: { used: 3, limit: 100, soft_limit: null, overage: false },
          max_web_credits: { used: 10, limit: 100, soft_limit: null, overage: false },
        }),
      )
      .on('POST', CREATE_PATH, () => json(CREATED));
    const { user } = renderForm(
      signedInWorld({ accountFeatures: ['create_tiny_url', 'use_bulk'] }),
      backend,
    );
    const form = await formRegion();
    expect(within(form).getByRole('radio', { name: 'Bulk' })).toBeInTheDocument();
    await user.type(within(form).getByLabelText(/Long URL/), 'https://example.com/page');
    await user.click(within(form).getByRole('button', { name: 'Shorten URL' }));
    const dialog = await findLoadedDialog('Use credits');
    expect(dialog).toHaveTextContent('1 credit will be used (90 left).');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await act(async () => {});
    expect(backend.requestsTo('POST', CREATE_PATH)).toHaveLength(0);
  });
});

describe('a legacy create flash', () => {
  afterEach(() => window.localStorage.removeItem('termsAccepted'));

  it('prefills a guest form from the address and waits for the bot check', async () => {
    render(<CreateLinkForm mode="home" />, {
      world: { domains: DOMAINS },
      route: '/?url=https%3A%2F%2Fexample.com%2Flegacy&alias=old-link',
    });
    const form = await formRegion();
    expect(within(form).getByLabelText(/Long URL/)).toHaveValue('https://example.com/legacy');
    expect(within(form).getByLabelText('Alias (optional)')).toHaveValue('old-link');
    expect(within(form).getByRole('button', { name: 'Shorten URL' })).toBeDisabled();
  });

  it('creates at once for a user who accepted the terms', async () => {
    window.localStorage.setItem('termsAccepted', 'true');
    const backend = new TestBackend().on('POST', CREATE_PATH, () => json(CREATED));
    render(<CreateLinkForm mode="home" />, {
      world: { ...signedInWorld(), domains: DOMAINS },
      backend,
      route: '/?url=https%3A%2F%2Fexample.com%2Fpage',
    });
    expect(
      await screen.findByText('http://shrt.test:54321/abc123', {}, { timeout: 10_000 }),
    ).toBeVisible();
    const [request] = backend.requestsTo('POST', CREATE_PATH);
    expect(await request!.json()).toMatchObject({ url: 'https://example.com/page' });
  });
});

describe('the Create side panel', () => {
  it('moves the focus to the result, so Escape still closes the panel', async () => {
    window.localStorage.setItem('termsAccepted', 'true');
    const backend = new TestBackend().on('POST', CREATE_PATH, () => json(CREATED));
    const { user } = renderApp({
      route: '/app/settings/profile',
      world: { ...signedInWorld(), domains: DOMAINS },
      backend,
    });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(await within(nav).findByRole('button', { name: 'Create Short Link' }));
    // The panel's code loads on first use: a loading frame stands in for it until then.
    const url = await screen.findByLabelText(/Long URL/, {}, { timeout: 20_000 });
    const panel = url.closest<HTMLElement>('[role="dialog"]')!;
    expect(panel).toHaveAccessibleName('Create Short Link');
    await user.type(url, 'https://example.com/page');
    await user.click(within(panel).getByRole('button', { name: 'Shorten URL' }));
    const title = await within(panel).findByRole(
      'heading',
      { name: 'Your short link is ready' },
      { timeout: 10_000 },
    );
    // The form's button is gone: without this the focus would fall to the body, out of reach
    // of the panel's Escape.
    await waitFor(() => expect(title).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Create Short Link' })).toBeNull(),
    );
  });

  it('shows the plan-limit modal instead once active aliases reached the limit', async () => {
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/account_limits', () =>
      json({
        max_active_aliases: { used: 100, limit: 100, soft_limit: null, overage: false },
        max_web_credits: { used: 0, limit: null, soft_limit: null, overage: false },
      }),
    );
    const { user } = renderApp({ route: '/app/settings/profile', world: signedInWorld(), backend });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(await within(nav).findByRole('button', { name: 'Create Short Link' }));
    const dialog = await screen.findByRole(
      'dialog',
      { name: "You've hit your plan's limit for creating links" },
      { timeout: 10_000 },
    );
    expect(
      within(dialog).getByText(
        'Turn on overages or upgrade your plan to continue shortening links.',
      ),
    ).toBeVisible();
    expect(within(dialog).getByRole('link', { name: 'Manage Overages' })).toHaveAttribute(
      'href',
      '/app/settings/usage',
    );
    expect(within(dialog).getByRole('link', { name: 'Upgrade Your Plan' })).toHaveAttribute(
      'href',
      '/app/settings/subscription',
    );
  });
});
