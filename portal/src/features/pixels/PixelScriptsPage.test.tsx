import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import PixelScriptsPage from './PixelScriptsPage.tsx';

const META = {
  id: 'px-meta',
  provider: 'meta',
  pixel_id: '123456789012345',
  name: 'Spring sale',
  created_at: '2026-11-20T10:00:00Z',
};

/** Types by pasting: key by key is slow in jsdom, and what is tested is the value, not the keys. */
async function fill(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

function open(answerPixels: (request: Request) => Response | Promise<Response>) {
  const backend = new TestBackend();
  backend.on('GET', '/rest/v1/pixels', answerPixels);
  return render(<PixelScriptsPage />, {
    world: signedInWorld(),
    backend,
    route: '/app/settings/pixel-scripts',
  });
}

describe('PixelScriptsPage', () => {
  it('says so when there are no pixels yet', async () => {
    open(() => json([]));
    expect(await screen.findByText(/No pixels yet/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Custom pixel scripts' })).toBeVisible();
  });

  it('lists the account’s pixels by name, provider and id', async () => {
    const { backend } = open(() => json([META]));
    const row = (await screen.findByRole('rowheader', { name: 'Spring sale' })).closest('tr')!;
    expect(within(row).getByText('Meta (Facebook)')).toBeVisible();
    expect(within(row).getByText('123456789012345')).toBeVisible();
    const asked = new URL(backend.requestsTo('GET', '/rest/v1/pixels')[0]!.url);
    expect(asked.searchParams.get('account_id')).toMatch(/^eq\./);
  });

  it('offers to try again when the pixels could not be loaded', async () => {
    let calls = 0;
    const { user } = open(() =>
      ++calls === 1 ? postgrestError(500, { message: 'down' }) : json([META]),
    );
    expect(
      await screen.findByText('The pixels could not be loaded', {}, { timeout: 5_000 }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('rowheader', { name: 'Spring sale' })).toBeVisible();
  });

  it('checks the id by provider before sending, and adds the pixel normalised', async () => {
    const { backend, user } = open(() => json([]));
    const inserted: unknown[] = [];
    backend.on('POST', '/rest/v1/pixels', async (request) => {
      inserted.push(await request.json());
      return json({ id: 'px-new' }, { status: 201 });
    });
    await user.click(await screen.findByRole('button', { name: 'Add pixel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add pixel' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'Name' }), 'Retargeting');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Pixel ID' }), '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Save pixel' }));
    expect(await within(dialog).findByText('A Meta pixel id is 15 or 16 digits.')).toBeVisible();
    expect(inserted).toEqual([]);

    await user.click(within(dialog).getByRole('combobox', { name: 'Provider' }));
    await user.click(await screen.findByRole('option', { name: 'TikTok' }));
    const code = within(dialog).getByRole('textbox', { name: 'Pixel code' });
    await user.clear(code);
    await fill(user, code, ' c4a1b2c3d4e5f6g7h8i9 ');
    await user.click(within(dialog).getByRole('button', { name: 'Save pixel' }));
    await waitFor(() =>
      expect(inserted).toEqual([
        {
          provider: 'tiktok',
          name: 'Retargeting',
          pixel_id: 'C4A1B2C3D4E5F6G7H8I9',
          account_id: expect.any(String),
        },
      ]),
    );
    expect(await screen.findByText('Pixel added.')).toBeVisible();
  }, 20_000);

  it('shows the database’s refusal on the id field', async () => {
    const { backend, user } = open(() => json([]));
    backend.on('POST', '/rest/v1/pixels', () =>
      postgrestError(409, { code: '23505', message: 'duplicate key value' }),
    );
    await user.click(await screen.findByRole('button', { name: 'Add pixel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add pixel' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'Name' }), 'Again');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Pixel ID' }), '123456789012345');
    await user.click(within(dialog).getByRole('button', { name: 'Save pixel' }));
    expect(await within(dialog).findByText('This pixel is already in this account.')).toBeVisible();
  });

  it('edits and deletes a pixel', async () => {
    const { backend, user } = open(() => json([META]));
    const patched: unknown[] = [];
    backend.on('PATCH', '/rest/v1/pixels', async (request) => {
      patched.push(await request.json());
      return json({ id: META.id });
    });
    backend.on('DELETE', '/rest/v1/pixels', () => new Response(null, { status: 204 }));

    await user.click(await screen.findByRole('button', { name: 'Edit Spring sale' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit pixel' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Spring sale');
    await user.clear(name);
    await fill(user, name, 'Autumn sale');
    await user.click(within(dialog).getByRole('button', { name: 'Save pixel' }));
    await waitFor(() =>
      expect(patched).toEqual([
        { provider: 'meta', name: 'Autumn sale', pixel_id: '123456789012345' },
      ]),
    );
    expect(await screen.findByText('Pixel saved.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Delete Spring sale' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete pixel' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Pixel deleted.')).toBeVisible();
    expect(backend.requestsTo('DELETE', '/rest/v1/pixels')).toHaveLength(1);
  }, 20_000);
});
