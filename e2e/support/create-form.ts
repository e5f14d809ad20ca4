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
