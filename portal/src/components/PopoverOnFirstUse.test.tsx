import { ActionIcon } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from '../test/render.tsx';
import { PopoverOnFirstUse } from './PopoverOnFirstUse.tsx';

/** An owner as the navigation's are: it holds `opened` and counts its openings. */
function Envelope({ openings }: { openings: number[] }) {
  const [opened, setOpened] = useState(false);
  return (
    <PopoverOnFirstUse
      trapFocus
      returnFocus
      opened={opened}
      onChange={(next) => {
        if (next) openings.push(Date.now());
        setOpened(next);
      }}
      dropdownProps={{ 'aria-label': 'Invitations' }}
      target={<ActionIcon aria-label="Invitations">✉</ActionIcon>}
    >
      <button type="button">Accept</button>
    </PopoverOnFirstUse>
  );
}

describe('PopoverOnFirstUse', () => {
  it('is a closed dialog button with no popover until pressed, then opens once per press and gives the focus back', async () => {
    const user = userEvent.setup();
    const openings: number[] = [];
    render(<Envelope openings={openings} />);

    const button = screen.getByRole('button', { name: 'Invitations' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();

    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Invitations' });
    expect(openings).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Invitations' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );

    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    const again = screen.getByRole('button', { name: 'Invitations' });
    await waitFor(() => expect(again).toHaveFocus());

    // From now on the button toggles it, through the owner.
    await user.click(again);
    expect(await screen.findByRole('button', { name: 'Accept' })).toBeVisible();
    expect(openings).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Invitations' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull());
    expect(openings).toHaveLength(2);
  });
});
