import { PHOTO_TYPE_ERROR } from '@shortlane/shared/validation/files.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { createTestServices, startSession } from '../../test/services.ts';
import { signedInWorld, subscriptionRow, TEST_USER_ID } from '../../test/world.ts';
import { EMAIL_CHANGE_SENT } from './EmailForm.tsx';

const EMAIL = 'ada@example.com';

/** A signed-in user's settings, with the profile's status flags and the billing facts. */
async function open(
  route: string,
  options: { status?: number; orders?: number; world?: ReturnType<typeof signedInWorld> } = {},
) {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  await startSession(testServices, backend, { id: TEST_USER_ID, email: EMAIL });
  const rendered = renderApp({
    route,
    world: options.world ?? signedInWorld(),
    backend,
    testServices,
  });
  // After scriptWorld, so these answers win.
  backend.on('GET', '/rest/v1/orders', () =>
    json(Array.from({ length: options.orders ?? 0 }, (_, i) => ({ id: `order-${i}` }))),
  );
  if (options.status !== undefined) {
    const status = options.status;
    backend.on('GET', '/rest/v1/profiles', (request) =>
      new URL(request.url).searchParams.get('select') === 'status'
        ? json({ status })
        : json({
            id: TEST_USER_ID,
            email: EMAIL,
            name: 'Ada Lovelace',
            photo_url: null,
            is_developer: false,
            is_survey_enabled: false,
            personal_account_id: '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21',
            current_team_id: null,
            team_mode: false,
            preview_features: [],
          }),
    );
  }
  return rendered;
}

// The first render loads the whole route table's modules: slow on a busy machine.
const SLOW = { timeout: 10_000 };
/** Whole tests get room for that too. */
const ROOMY = { timeout: 30_000 };

const sidebar = async (title: 'Account' | 'Billing') => {
  const nav = await screen.findByRole('navigation', { name: `${title} settings` }, SLOW);
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
};

describe('settings layout', ROOMY, () => {
  it('shows both sidebars beside the profile, the current page marked', async () => {
    await open('/app/settings/profile', { status: 0 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' }, SLOW)).toBeVisible();
    expect(await sidebar('Account')).toEqual(['Profile', 'Security', 'Account Usage']);
    await waitFor(async () =>
      expect(await sidebar('Billing')).toEqual(['Subscription', 'Invoices']),
    );
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
  });

  it('adds Orders and Payment Method for a subscriber, and hides Invoices when flagged', async () => {
    await open('/app/settings/profile', {
      status: 16,
      world: signedInWorld({ subscriptions: [subscriptionRow()] }),
    });
    await waitFor(async () =>
      expect(await sidebar('Billing')).toEqual(['Subscription', 'Orders', 'Payment Method']),
    );
  });

  it('keeps the sidebars on a page not built yet', async () => {
    await open('/app/settings/invoices', { status: 0, orders: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoices' }, SLOW)).toBeVisible();
    await waitFor(async () =>
      expect(await sidebar('Billing')).toEqual(['Subscription', 'Orders', 'Invoices']),
    );
    expect(screen.getByRole('link', { name: 'Invoices' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('profile page', ROOMY, () => {
  it('refuses an empty name with the message, without saving', async () => {
    const { user, backend } = await open('/app/settings/profile');
    const name = await screen.findByRole('textbox', { name: 'Name' }, SLOW);
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('The name field is required.')).toBeVisible();
    expect(backend.requestsTo('PATCH', '/rest/v1/profiles')).toEqual([]);
  });

  it('saves a new name', async () => {
    const { user, backend } = await open('/app/settings/profile');
    backend.on('PATCH', '/rest/v1/profiles', () => json({ id: TEST_USER_ID }));
    const name = await screen.findByRole('textbox', { name: 'Name' }, SLOW);
    await user.clear(name);
    await user.type(name, '  Grace Hopper ');
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Your name was saved.')).toBeVisible();
    const [patch] = backend.requestsTo('PATCH', '/rest/v1/profiles');
    expect(await patch!.json()).toEqual({ name: 'Grace Hopper' });
  });

  it('refuses a text file named .jpg as a photo, without uploading it', async () => {
    const { user, backend, container } = await open('/app/settings/profile');
    await screen.findByRole('button', { name: 'Upload photo' });
    const input = container.ownerDocument.querySelector<HTMLInputElement>('input[type=file]')!;
    await user.upload(input, new File(['not an image'], 'fake.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PHOTO_TYPE_ERROR);
    expect(backend.requests.some((r) => r.url.includes('/storage/v1/'))).toBe(false);
  });

  it('asks Auth to change the e-mail address and shows it as waiting', async () => {
    const { user, backend } = await open('/app/settings/profile');
    let pending: string | undefined;
    const authUser = () => ({
      id: TEST_USER_ID,
      aud: 'authenticated',
      email: EMAIL,
      new_email: pending,
      app_metadata: {},
      user_metadata: {},
      created_at: '2024-11-18T00:00:00Z',
    });
    backend.on('GET', '/auth/v1/user', () => json(authUser()));
    backend.on('PUT', '/auth/v1/user', async (request) => {
      pending = ((await request.json()) as { email: string }).email;
      return json(authUser());
    });
    expect(await screen.findByText(EMAIL)).toBeVisible();
    await user.type(
      screen.getByRole('textbox', { name: 'New e-mail address' }),
      'grace@example.com',
    );
    await user.click(screen.getByRole('button', { name: 'Change e-mail address' }));
    expect(await screen.findByText(EMAIL_CHANGE_SENT)).toBeVisible();
    const waiting = await screen.findByRole('status');
    expect(waiting).toHaveTextContent('grace@example.com');
  });
});

describe('delete account page', ROOMY, () => {
  it('shows a wrong password under the field and stays', async () => {
    const { user, backend, router } = await open('/app/settings/profile/delete');
    backend.on('POST', '/functions/v1/account-delete', () =>
      json(
        {
          code: 'validation_failed',
          message: 'The password is incorrect.',
          errors: { password: ['The password is incorrect.'] },
        },
        { status: 422 },
      ),
    );
    await user.type(await screen.findByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(
      await screen.findByText('The password is incorrect.', {
        selector: '.mantine-InputWrapper-error',
      }),
    ).toBeVisible();
    expect(currentUrl(router)).toBe('/app/settings/profile/delete');
  });

  it('asks for the password before calling anyone', async () => {
    const { user, backend } = await open('/app/settings/profile/delete');
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('The password field is required.')).toBeVisible();
    expect(backend.requestsTo('POST', '/functions/v1/account-delete')).toEqual([]);
  });

  it('deletes the account, signs out and lands on the deleted page', async () => {
    const { user, backend, router } = await open('/app/settings/profile/delete');
    backend.on('POST', '/functions/v1/account-delete', () =>
      json({ deleted: true, files_removed: 0 }),
    );
    backend.on('POST', '/auth/v1/logout', () => postgrestError(404, { message: 'gone' }));
    await user.type(await screen.findByLabelText(/^Password/), 'password123');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/deleted'));
    const [call] = backend.requestsTo('POST', '/functions/v1/account-delete');
    expect(await call!.json()).toEqual({ password: 'password123' });
  });
});
