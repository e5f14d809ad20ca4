import path from 'node:path';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { Factories } from './factories.ts';
import { MailboxReader } from './mailbox.ts';
import { appUrls, stackEnv } from './stack.ts';

/** Screenshots worth keeping after a run (git-ignored); failures also get Playwright's own. */
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, '..', 'artifacts');

interface Fixtures {
  /**
   * The onboarding survey opens by itself over the homepage and dashboard of every user who has
   * not answered or skipped it. Specs about something else start with it skipped for the
   * session, as a user who chose "Not now"; tests tagged @survey see it.
   */
  surveyOffered: boolean;
  /**
   * The sale (the test stack's calendar runs it today), the free-trial promotion and the trial
   * reminders open modals over the pages of unsubscribed and trial users. Specs about something
   * else start with them closed, as a user who closed them; tests tagged @promotions see them.
   */
  promotionsShown: boolean;
  /**
   * A page in a context of its own (a second person: no cookies or storage shared with `page`),
   * with the same survey and promotion defaults as `page`. Closed with the test.
   */
  freshPage: () => Promise<Page>;
  factories: Factories;
  mailbox: MailboxReader;
  /** Saves a full-page screenshot of the test's page as e2e/artifacts/<name>.png. */
  saveScreenshot: (name: string) => Promise<void>;
}

/** The survey skipped and the promotions closed in every page of `context`, unless asked for. */
async function quietDefaults(
  context: BrowserContext,
  { surveyOffered, promotionsShown }: { surveyOffered: boolean; promotionsShown: boolean },
): Promise<void> {
  if (!surveyOffered) {
    await context.addInitScript(() => window.sessionStorage.setItem('surveySkipped', 'true'));
  }
  if (!promotionsShown) {
    // The storage keys of shared/src/constants.ts (STORAGE_KEYS): closed just now.
    await context.addInitScript(() => {
      const now = new Date().toISOString();
      window.localStorage.setItem('salePromotionClosed', 'true');
      window.localStorage.setItem('trialPromotionClosedAt', now);
      window.localStorage.setItem('trialReminderClosedAt', now);
      window.sessionStorage.setItem('trialReminderClosedAt', now);
    });
  }
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from its first parameter.
  surveyOffered: async ({}, use, testInfo) => {
    await use(testInfo.tags.includes('@survey'));
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  promotionsShown: async ({}, use, testInfo) => {
    await use(testInfo.tags.includes('@promotions'));
  },
  // On the context, so pages a test opens later (the portal the kiosk's impersonation opens, a
  // second user's tab) skip it too.
  context: async ({ context, surveyOffered, promotionsShown }, use) => {
    await quietDefaults(context, { surveyOffered, promotionsShown });
    await use(context);
  },
  freshPage: async ({ browser, surveyOffered, promotionsShown }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext();
      contexts.push(context);
      await quietDefaults(context, { surveyOffered, promotionsShown });
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from its first parameter.
  factories: async ({}, use) => {
    const factories = new Factories(stackEnv());
    await use(factories);
    await factories.cleanup();
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  mailbox: async ({}, use) => {
    await use(new MailboxReader(stackEnv().MAILBOX_URL));
  },
  saveScreenshot: async ({ page }, use) => {
    await use(async (name) => {
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
    });
  },
});

export { expect, appUrls };
