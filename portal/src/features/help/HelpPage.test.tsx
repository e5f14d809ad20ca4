import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { render } from '../../test/render.tsx';
import HelpPage from './HelpPage.tsx';

// Rendering loads the page's modules first: slow on a busy machine.
const ROOMY = { timeout: 30_000 };

describe('HelpPage', () => {
  it('opens an answer with the link to where it is done', ROOMY, async () => {
    const { user } = render(<HelpPage />, { route: '/app/help' });
    await user.click(await screen.findByRole('button', { name: 'Where are my invoices?' }));
    const answer = await screen.findByText(
      'Every invoice is in the settings, with a PDF to download.',
    );
    await waitFor(() => expect(answer).toBeVisible());
    expect(screen.getByRole('link', { name: 'Invoices' })).toHaveAttribute(
      'href',
      '/app/settings/invoices',
    );
  });

  it('narrows the answers as one types, and says when none match', ROOMY, async () => {
    const { user } = render(<HelpPage />, { route: '/app/help' });
    const search = await screen.findByRole('searchbox', { name: 'Search the answers' });
    await user.type(search, 'two-factor');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('1 answer matches.'));
    expect(
      screen.getByRole('button', { name: 'How do I turn on two-factor authentication?' }),
    ).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Short links' })).toBeNull();
    await user.clear(search);
    await user.type(search, 'zebra');
    expect(await screen.findByText(/No answer matches “zebra”/)).toBeVisible();
  });
});
