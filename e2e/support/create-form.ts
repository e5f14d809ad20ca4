import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** Opens the navigation's Create side panel and answers its form once it is ready. */
export async function openCreatePanel(page: Page): Promise<Locator> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Create Short Link' })
    .click();
  const panel = page.getByRole('dialog', { name: 'Create Short Link' });
  const form = panel.getByRole('region', { name: 'Shorten a link' });
  // The form is fetched on first open; a busy machine takes its time.
  await expect(form.getByLabel('Long URL')).toBeVisible({ timeout: 60_000 });
  return form;
}

/** The main short URL a single result shows first. */
export function mainShortUrl(result: Locator): Promise<string> {
  return result
    .getByRole('list', { name: /Short URL/ })
    .getByRole('listitem')
    .first()
    .getByRole('link')
    .first()
    .innerText();
}

/**
 * Ticks the local sandbox's bot check. The box shows ticked only once the sandbox has answered
 * with a token, so this clicks and then waits for it, rather than expecting the tick at once.
 */
export async function passBotCheck(form: Locator): Promise<void> {
  const box = form.getByLabel('I am human');
  await box.click();
  await expect(box).toBeChecked();
}

/** A destination no other test uses, so each run creates a new link. */
export function uniqueDestination(label: string): string {
  return `https://example.com/e2e/${label}/${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Submits the form, confirming the credit use where the form asks (as it does for free plans). */
export async function shorten(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Shorten URL' }).click();
  const credits = page.getByRole('dialog', { name: 'Use credits' });
  const result = page.getByRole('region', { name: 'Your short link is ready' });
  await expect(credits.or(result)).toBeVisible();
  if (await credits.isVisible()) await credits.getByRole('button', { name: 'Continue' }).click();
}

/** Opens the form's advanced options, where the UTM toggle is. */
export async function openAdvancedOptions(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Advanced options' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(page.getByLabel('Add UTM parameters')).toBeVisible();
}
