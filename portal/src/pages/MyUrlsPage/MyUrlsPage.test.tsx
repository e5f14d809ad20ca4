import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { readGuestHistory, rememberGuestLink } from '../../features/links/guestHistory.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import { findLoadedDialog } from '../../test/dialogs.ts';

vi.setConfig({ testTimeout: 30_000 });

function remember(alias: string, createdAt: string) {
  rememberGuestLink({
    alias,
    domain: 'shrt.localhost',
    longUrl: `https://example.com/${alias}`,
    createdAt,
  });
}

describe('My URLs', () => {
  it("lists this browser's links newest first, to copy or visit", async () => {
    remember('first', '2026-11-20T10:00:00Z');
    remember('second', '2026-11-21T10:00:00Z');
    renderApp({ route: '/app/my-urls' });
    const list = await screen.findByRole('region', { name: 'Short links made in this browser' });
    const cards = within(list).getAllByRole('article');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual([
      'shrt.localhost/second',
      'shrt.localhost/first',
    ]);
    expect(
      within(cards[0]!).getByRole('link', { name: 'Visit shrt.localhost/second' }),
    ).toHaveAttribute('href', 'http://shrt.localhost:54321/second');
    expect(within(cards[0]!).getByText('https://example.com/second')).toBeVisible();
    expect(
      within(cards[0]!).getByRole('button', { name: 'Copy shrt.localhost/second' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Clear history' })).toHaveAttribute(
      'href',
      '/app/my-urls/clear-history',
    );
  });

  it('says so when this browser made no links', async () => {
    renderApp({ route: '/app/my-urls' });
    expect(await screen.findByText('No short links made in this browser yet.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Shorten a link' })).toHaveAttribute('href', '/app');
    expect(screen.queryByRole('link', { name: 'Clear history' })).toBeNull();
  });

  it('clears the history once confirmed and goes back to My URLs', async () => {
    remember('gone', '2026-11-20T10:00:00Z');
    const { router, user } = renderApp({ route: '/app/my-urls/clear-history' });
    const dialog = await findLoadedDialog('Clear history');
    await user.click(within(dialog).getByRole('button', { name: 'Clear history' }));
    expect(await screen.findByText('No short links made in this browser yet.')).toBeVisible();
    expect(currentUrl(router)).toBe('/app/my-urls');
    expect(readGuestHistory()).toEqual([]);
  });

  it('keeps the history when the question is declined', async () => {
    remember('kept', '2026-11-20T10:00:00Z');
    const { router, user } = renderApp({ route: '/app/my-urls/clear-history' });
    const dialog = await findLoadedDialog('Clear history');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('article', { name: 'shrt.localhost/kept' })).toBeVisible();
    await waitFor(() => expect(currentUrl(router)).toBe('/app/my-urls'));
    expect(readGuestHistory()).toHaveLength(1);
  });

  it('sends a signed-in user from clear-history to the homepage', async () => {
    const { router } = renderApp({ route: '/app/my-urls/clear-history', world: signedInWorld() });
    await waitFor(() => expect(currentUrl(router)).toBe('/app'));
    expect(screen.queryByRole('dialog', { name: 'Clear history' })).toBeNull();
  });
});
