import { Button } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { render } from '../test/render.tsx';
import { MenuOnFirstUse } from './MenuOnFirstUse.tsx';

describe('MenuOnFirstUse', () => {
  it('is a closed menu button with no menu until pressed, then a working menu that gives the focus back', async () => {
    const user = userEvent.setup();
    const archive = vi.fn();
    const created: boolean[] = [];
    render(
      <MenuOnFirstUse
        target={(menuExists) => {
          created.push(menuExists);
          return <Button aria-label="More actions for spring">More</Button>;
        }}
      >
        {(menu) => <menu.Item onClick={archive}>Archive</menu.Item>}
      </MenuOnFirstUse>,
    );

    const button = screen.getByRole('button', { name: 'More actions for spring' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(created).not.toContain(true);

    await user.click(button);
    const menu = await screen.findByRole('menu');
    expect(screen.getByRole('button', { name: 'More actions for spring' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(created.at(-1)).toBe(true);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(menu).not.toBeInTheDocument());
    const again = screen.getByRole('button', { name: 'More actions for spring' });
    await waitFor(() => expect(again).toHaveFocus());

    // From now on it is Mantine's menu as usual.
    await user.click(again);
    await user.click(await screen.findByRole('menuitem', { name: 'Archive' }));
    expect(archive).toHaveBeenCalledOnce();
  });
});
