import { act, screen, waitFor, within } from '@testing-library/react';
import { lazy, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from '../test/render.tsx';
import { LazyOnFirstUse } from './LazyOnFirstUse.tsx';
import { LoadingModal } from './LoadingDialog.tsx';

/** A lazily loaded modal whose code arrives when the test says so. */
function deferredModal() {
  let arrive!: () => void;
  const loaded = new Promise<void>((resolve) => (arrive = resolve));
  let requested = 0;
  const Content = lazy(async () => {
    requested += 1;
    await loaded;
    const { Modal } = await import('@mantine/core');
    return {
      default: ({ opened, onClose }: { opened: boolean; onClose: () => void }) => (
        <Modal opened={opened} onClose={onClose} title="Report" centered>
          <p>The report</p>
        </Modal>
      ),
    };
  });
  return { Content, arrive: () => act(arrive), requests: () => requested };
}

describe('LazyOnFirstUse', () => {
  it('loads nothing until first opened, then shows the frame with its loader at once', async () => {
    const modal = deferredModal();
    function Opener() {
      const [opened, setOpened] = useState(false);
      const close = () => setOpened(false);
      return (
        <>
          <button onClick={() => setOpened(true)}>Open</button>
          <LazyOnFirstUse
            active={opened}
            fallback={
              <LoadingModal
                opened={opened}
                onClose={close}
                centered
                title="Report"
                loadingLabel="Loading the report"
              />
            }
          >
            <modal.Content opened={opened} onClose={close} />
          </LazyOnFirstUse>
        </>
      );
    }
    const { user } = render(<Opener />);
    expect(modal.requests()).toBe(0);
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Open' }));
    // Before the code is there: the dialog, its title and a named loading status.
    const frame = await screen.findByRole('dialog', { name: 'Report' });
    expect(within(frame).getByRole('status')).toHaveTextContent('Loading the report');
    expect(within(frame).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.queryByText('The report')).toBeNull();
    expect(modal.requests()).toBe(1);

    await modal.arrive();
    const dialog = await screen.findByRole('dialog', { name: 'Report' });
    expect(await within(dialog).findByText('The report')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});
