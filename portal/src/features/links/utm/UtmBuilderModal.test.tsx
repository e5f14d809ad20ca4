import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, postgrestError, TestBackend } from '../../../test/backend.ts';
import { findLoadedDialog } from '../../../test/dialogs.ts';
import { render } from '../../../test/render.tsx';
import type { TestServices } from '../../../test/services.ts';
import { signedInWorld } from '../../../test/world.ts';
import { UtmBuilderModal } from './UtmBuilderModal.tsx';

// Typing into several fields of a modal takes seconds of jsdom work on a shared machine.
vi.setConfig({ testTimeout: 30_000 });

const PERSONAL_ACCOUNT = '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21';
const TEAM_ACCOUNT = '0d9a3c1e-6b7f-4d8e-9a1b-2c3d4e5f6a7b';

const PRESETS = [
  {
    id: 'preset-a',
    name: 'Preset A',
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'spring_launch',
    utm_term: null,
    utm_content: 'header_link',
  },
  {
    id: 'preset-b',
    name: 'Preset B',
    utm_source: 'facebook',
    utm_medium: 'social',
    utm_campaign: 'black_friday',
    utm_term: 'deals',
    utm_content: null,
  },
];

function notices({ services }: TestServices) {
  return services.noticeStore.getState().notifications.map((notice) => notice.message);
}

async function renderBuilder(
  options: { url?: string; guest?: boolean; accountId?: string; backend?: TestBackend } = {},
) {
  const onApply = vi.fn<(url: string) => void>();
  const onClose = vi.fn<() => void>();
  const backend = (options.backend ?? new TestBackend()).table('utm_presets', PRESETS);
  const rendered = render(
    <UtmBuilderModal
      opened
      url={options.url ?? 'https://shop.test/item?color=blue'}
      onApply={onApply}
      onClose={onClose}
      accountId={options.accountId}
    />,
    { world: options.guest ? {} : signedInWorld(), backend },
  );
  // The form's code loads behind a loader in the opened modal.
  await findLoadedDialog('UTM Builder');
  // The preset controls wait for the session's second-factor check; on a busy machine that
  // can come after the form shows, so a signed-in test starts once they are there.
  if (!options.guest) await screen.findByRole('checkbox', { name: 'Save as a new preset' });
  return { ...rendered, onApply, onClose };
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

describe('UtmBuilderModal: the field table (link-creation 5)', () => {
  it('requires source, medium and campaign, with the spec messages, and applies nothing', async () => {
    const { user, onApply } = await renderBuilder({ guest: true });
    expect(await screen.findByRole('dialog', { name: 'UTM Builder' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The utm source field is required.')).toBeVisible();
    expect(screen.getByText('The utm medium field is required.')).toBeVisible();
    expect(screen.getByText('The utm campaign field is required.')).toBeVisible();
    // The first invalid field takes the focus.
    expect(field(/utm_source/)).toHaveFocus();
    expect(onApply).not.toHaveBeenCalled();
  });

  it('limits each field to 100/50/150/50/100 characters', async () => {
    const { user, onApply } = await renderBuilder({ guest: true });
    const limits = [
      [/utm_source/, 100, 'The utm source must not be greater than 100.'],
      [/utm_medium/, 50, 'The utm medium must not be greater than 50.'],
      [/utm_campaign/, 150, 'The utm campaign must not be greater than 150.'],
      [/utm_term/, 50, 'The utm term must not be greater than 50.'],
      [/utm_content/, 100, 'The utm content must not be greater than 100.'],
    ] as const;
    for (const [name, max] of limits) {
      await user.click(field(name));
      await user.paste('x'.repeat(max + 1));
    }
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    for (const [, , message] of limits) {
      expect(await screen.findByText(message)).toBeVisible();
    }
    for (const [name] of limits) {
      await user.clear(field(name));
      await user.click(field(name));
      await user.paste('x');
    }
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(onApply).toHaveBeenCalledTimes(1));
  });

  it('starts from the utm values already in the URL and replaces them, adding only non-empty values', async () => {
    const { user, onApply, onClose } = await renderBuilder({
      guest: true,
      url: 'https://shop.test/item?utm_source=old&color=blue&utm_term=gone#top',
    });
    expect(await screen.findByDisplayValue('old')).toBe(field(/utm_source/));
    expect(field(/utm_term/)).toHaveValue('gone');
    await user.clear(field(/utm_source/));
    await user.type(field(/utm_source/), 'news letter');
    await user.type(field(/utm_medium/), 'email');
    await user.type(field(/utm_campaign/), 'spring&summer');
    await user.clear(field(/utm_term/));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(onApply).toHaveBeenCalledWith(
        'https://shop.test/item?color=blue&utm_source=news%20letter&utm_medium=email&utm_campaign=spring%26summer#top',
      ),
    );
    expect(onClose).toHaveBeenCalled();
  });

  it('keeps its submit from reaching the form it was opened from', async () => {
    const outerSubmit = vi.fn();
    const onApply = vi.fn<(url: string) => void>();
    const { user } = render(
      <form
        onSubmit={(event) => {
          event.preventDefault();
          outerSubmit();
        }}
      >
        <UtmBuilderModal opened url="https://shop.test/" onApply={onApply} onClose={() => {}} />
      </form>,
    );
    await user.click(await screen.findByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The utm source field is required.')).toBeVisible();
    await user.type(field(/utm_source/), 'a');
    await user.type(field(/utm_medium/), 'b');
    await user.type(field(/utm_campaign/), 'c');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(onApply).toHaveBeenCalledTimes(1));
    expect(outerSubmit).not.toHaveBeenCalled();
  });

  it('offers no presets and no saving to a guest', async () => {
    const { backend } = await renderBuilder({ guest: true });
    await screen.findByRole('dialog', { name: 'UTM Builder' });
    expect(screen.queryByRole('combobox', { name: 'Preset' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Save as a new preset' })).toBeNull();
    expect(backend.requestsTo('GET', '/rest/v1/utm_presets')).toHaveLength(0);
  });
});

describe('UtmBuilderModal: presets (link-creation 3, 4 and 7)', () => {
  it("lists the account's presets and applying one fills the fields", async () => {
    const { user, backend, onApply } = await renderBuilder();
    const picker = await screen.findByRole('combobox', { name: 'Preset' });
    await waitFor(() => expect(picker).toBeEnabled());
    const [request] = backend.requestsTo('GET', '/rest/v1/utm_presets');
    expect(new URL(request!.url).searchParams.get('account_id')).toBe(`eq.${PERSONAL_ACCOUNT}`);
    await user.click(picker);
    expect(screen.getByRole('option', { name: 'Preset A' })).toBeVisible();
    await user.click(screen.getByRole('option', { name: 'Preset B' }));
    expect(field(/utm_source/)).toHaveValue('facebook');
    expect(field(/utm_medium/)).toHaveValue('social');
    expect(field(/utm_campaign/)).toHaveValue('black_friday');
    expect(field(/utm_term/)).toHaveValue('deals');
    expect(field(/utm_content/)).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(onApply).toHaveBeenCalledWith(
        'https://shop.test/item?color=blue&utm_source=facebook&utm_medium=social&utm_campaign=black_friday&utm_term=deals',
      ),
    );
  });

  it('saves a preset into the given account before applying, when the create option is on', async () => {
    const backend = new TestBackend();
    const saved: unknown[] = [];
    backend.on('POST', '/rest/v1/rpc/create_utm_preset', async (request) => {
      saved.push(await request.json());
      return json({ ...PRESETS[0], id: 'preset-new', name: 'Launch' });
    });
    const { user, onApply } = await renderBuilder({ backend, accountId: TEAM_ACCOUNT });
    await user.type(await screen.findByRole('textbox', { name: /utm_source/ }), 'news');
    await user.type(field(/utm_medium/), 'email');
    await user.type(field(/utm_campaign/), 'launch');
    await user.click(screen.getByRole('checkbox', { name: 'Save as a new preset' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    // The name is needed only with the option on.
    expect(await screen.findByText('The name field is required.')).toBeVisible();
    expect(saved).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: /Preset name/ }), ' Launch ');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(onApply).toHaveBeenCalledTimes(1));
    expect(saved).toEqual([
      {
        p_account_id: TEAM_ACCOUNT,
        p_name: 'Launch',
        p_utm_source: 'news',
        p_utm_medium: 'email',
        p_utm_campaign: 'launch',
      },
    ]);
    // The list is read again, so the new preset shows next time.
    await waitFor(() => expect(backend.requestsTo('GET', '/rest/v1/utm_presets')).toHaveLength(2));
  });

  it('puts a 422 answer on the fields, with no global notice, and stays open', async () => {
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/create_utm_preset', () =>
      postgrestError(422, {
        message: 'utm_preset_invalid',
        details: 'The name has already been taken.',
        hint: 'name',
      }),
    );
    const { user, onApply, testServices } = await renderBuilder({ backend });
    await user.type(await screen.findByRole('textbox', { name: /utm_source/ }), 'news');
    await user.type(field(/utm_medium/), 'email');
    await user.type(field(/utm_campaign/), 'launch');
    await user.click(screen.getByRole('checkbox', { name: 'Save as a new preset' }));
    await user.type(screen.getByRole('textbox', { name: /Preset name/ }), 'Preset A');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The name has already been taken.')).toBeVisible();
    expect(screen.getByRole('textbox', { name: /Preset name/ })).toHaveAccessibleDescription(
      'The name has already been taken.',
    );
    expect(onApply).not.toHaveBeenCalled();
    expect(notices(testServices)).toEqual([]);
  });

  it("shows any other failure as one notice: the server's message", async () => {
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/create_utm_preset', () =>
      postgrestError(403, { message: 'permission_denied', details: 'Permission denied' }),
    );
    const { user, onApply, testServices } = await renderBuilder({ backend });
    await user.type(await screen.findByRole('textbox', { name: /utm_source/ }), 'news');
    await user.type(field(/utm_medium/), 'email');
    await user.type(field(/utm_campaign/), 'launch');
    await user.click(screen.getByRole('checkbox', { name: 'Save as a new preset' }));
    await user.type(screen.getByRole('textbox', { name: /Preset name/ }), 'Mine');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(notices(testServices)).toEqual(['Permission denied']));
    expect(onApply).not.toHaveBeenCalled();
  });
});
