import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findLoadedDialog } from '../test/dialogs.ts';
import { render } from '../test/render.tsx';

describe('shell modals', () => {
  it('confirm: title, HTML message, and the answer goes back to the caller', async () => {
    const { user, services } = render(<p>page</p>);
    let answer!: Promise<boolean>;
    act(() => {
      answer = services.dialogs.confirm({
        title: 'Use credits?',
        messageHtml: '<strong>3 credits</strong> will be used.',
      });
    });
    const dialog = await findLoadedDialog('Use credits?');
    expect(within(dialog).getByText('3 credits').tagName).toBe('STRONG');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe(true);

    act(() => {
      answer = services.dialogs.confirm({ title: 'Again?', messageHtml: 'Sure?' });
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(false);
  });

  it('error: falls back to the something-went-wrong text, and never reads text as HTML', async () => {
    const { user, services } = render(<p>page</p>);
    act(() => services.dialogs.showError({ message: '  ' }));
    const dialog = await findLoadedDialog(/Error/);
    expect(within(dialog).getByText('Something went wrong.')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));

    act(() =>
      services.dialogs.showError({ title: 'Heads up', message: '<b>bold</b>', type: 'warning' }),
    );
    const second = await findLoadedDialog(/Heads up/);
    expect(within(second).getByText('<b>bold</b>')).toBeVisible();
  });

  it('closing everything (as logout does) answers waiting callers with false', async () => {
    const { services } = render(<p>page</p>);
    let answer!: Promise<boolean>;
    act(() => {
      answer = services.dialogs.confirm({ title: 'Leave?', messageHtml: 'Really?' });
    });
    await findLoadedDialog('Leave?');
    act(() => services.dialogs.closeAll());
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
