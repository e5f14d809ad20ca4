import { COOKIE_NAMES } from '@shortlane/shared/constants.ts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../test/render.tsx';
import { createTestServices } from '../test/services.ts';
import { TestBackend } from '../test/backend.ts';
import { signedInWorld, subscriptionRow } from '../test/world.ts';
import { findLoadedDialog } from '../test/dialogs.ts';

async function footer() {
  const element = await screen.findByRole('contentinfo');
  return within(element);
}

describe('footer', () => {
  it('shows the copyright and the legal links', async () => {
    const { user, router } = renderApp({ route: '/app/pricing' });
    const links = await footer();
    expect(
      links.getByText(`© ${new Date().getFullYear()} Shortlane. All rights reserved.`),
    ).toBeVisible();
    expect(links.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/app/privacy-policy',
    );
    await user.click(links.getByRole('link', { name: 'Terms' }));
    expect(currentUrl(router)).toBe('/app/terms');
  });

  it('Accessibility opens the statement with the contact address', async () => {
    const { user } = renderApp({ route: '/app/terms' });
    await user.click((await footer()).getByRole('button', { name: 'Accessibility' }));
    const dialog = await findLoadedDialog('Accessibility');
    expect(within(dialog).getByText(/WCAG/)).toBeVisible();
    expect(
      within(dialog).getByRole('link', { name: 'accessibility@shortlane.example' }),
    ).toHaveAttribute('href', 'mailto:accessibility@shortlane.example');
  });

  it('offers the Privacy Manager only while the ad-consent provider is on', async () => {
    const guest = renderApp({ route: '/app/terms' });
    expect((await footer()).getByRole('button', { name: 'Privacy Manager' })).toBeVisible();
    guest.unmount();

    const subscriber = renderApp({
      route: '/app/terms',
      world: signedInWorld({ subscriptions: [subscriptionRow()] }),
    });
    await screen
      .findByRole('navigation', { name: 'Main' })
      .then((nav) => within(nav).findByRole('button', { name: 'Log out' }));
    expect((await footer()).queryByRole('button', { name: 'Privacy Manager' })).toBeNull();
    subscriber.unmount();

    const backend = new TestBackend();
    renderApp({
      route: '/app/terms',
      backend,
      testServices: createTestServices(backend, { VITE_ADS_ENABLED: 'false' }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
    expect((await footer()).queryByRole('button', { name: 'Privacy Manager' })).toBeNull();
  });

  it('the privacy opt-out keeps true or false in the tinyStrictPrivate cookie', async () => {
    const { user, router } = renderApp({ route: '/app/terms' });
    await user.click((await footer()).getByRole('button', { name: 'Privacy Manager' }));
    let dialog = within(await findLoadedDialog('Privacy Manager'));
    const optOut = dialog.getByRole('switch', {
      name: 'Do not sell or share my personal information',
    });
    expect(optOut).not.toBeChecked();

    await user.click(optOut);
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(document.cookie).toContain(`${COOKIE_NAMES.strictPrivate}=true`);
    expect(await screen.findByText('Your privacy choice was saved.')).toBeInTheDocument();

    await user.click((await footer()).getByRole('button', { name: 'Privacy Manager' }));
    dialog = within(await findLoadedDialog('Privacy Manager'));
    expect(dialog.getByRole('switch')).toBeChecked();
    await user.click(dialog.getByRole('switch'));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(document.cookie).toContain(`${COOKIE_NAMES.strictPrivate}=false`);

    await user.click((await footer()).getByRole('button', { name: 'Privacy Manager' }));
    dialog = within(await findLoadedDialog('Privacy Manager'));
    await user.click(dialog.getByRole('link', { name: 'Privacy Policy' }));
    expect(currentUrl(router)).toBe('/app/privacy-policy');
    expect(screen.queryByRole('dialog', { name: 'Privacy Manager' })).not.toBeInTheDocument();
  });
});
