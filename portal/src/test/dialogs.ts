import { screen, waitFor } from '@testing-library/react';

/**
 * The dialog named `name` once its content is there. A lazily loaded dialog first shows its
 * frame with a LoadingFrame, then the loaded dialog takes its place: a different element, so
 * tests look it up again rather than keep the frame's.
 */
export async function findLoadedDialog(name: string | RegExp): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = screen.getByRole('dialog', { name });
    if (dialog.querySelector('[data-loading-frame]')) throw new Error(`${String(name)} is loading`);
    return dialog;
  });
}
