import { Button } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { cloneElement, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from '../test/render.tsx';
import { lazyParts } from './lazyParts.ts';
import { useOverlayOnFirstPress } from './overlayOnFirstPress.ts';

/** Parts fetched over a connection that is down until `reconnect()`, as a chunk's fetch fails. */
function partsOverAConnection() {
  let online = false;
  const parts = lazyParts(async () => {
    if (!online) throw new TypeError('Failed to fetch dynamically imported module');
    return { label: 'the overlay' };
  }, 'this menu');
  return { parts, reconnect: () => (online = true) };
}

function Overlay({ parts }: { parts: ReturnType<typeof partsOverAConnection>['parts'] }) {
  const [opened, setOpened] = useState(false);
  const overlay = useOverlayOnFirstPress(parts, 'menu', () => setOpened(true));
  const button = <Button>Organizations</Button>;
  if (!overlay.parts) return cloneElement(button, overlay.standIn);
  return (
    <>
      {cloneElement(button, { ref: overlay.targetRef })}
      {opened && <p>Opened {overlay.parts.label}</p>}
    </>
  );
}

describe('useOverlayOnFirstPress', () => {
  it('says when its code cannot be fetched, stays a closed button, and works on the next press', async () => {
    const user = userEvent.setup();
    const { parts, reconnect } = partsOverAConnection();
    const { services } = render(<Overlay parts={parts} />);
    const notices = () => services.noticeStore.getState().notifications.map((n) => n.message);
    const button = screen.getByRole('button', { name: 'Organizations' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');

    await user.click(button);
    await waitFor(() =>
      expect(notices()).toEqual(['Could not load this menu. Check your connection and try again.']),
    );
    await waitFor(() => expect(button).not.toHaveAttribute('aria-busy'));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/^Opened/)).toBeNull();

    reconnect();
    await user.click(button);
    expect(await screen.findByText('Opened the overlay')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Organizations' })).toHaveFocus();
  });
});
