import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { localShortUrlBase } from '../supabase/local/src/functions/local-env.ts';
import { TEST_STACK_ENV } from '../supabase/local/src/test-stack-env.ts';
import { appPorts, appUrls, browserStackSettings } from './support/stack.ts';

/**
 * Chromium against the portal and kiosk dev servers on a real local stack. Browsers are never
 * downloaded: the system's Chromium is used (`apt-get install chromium` on Debian).
 *
 *   npx playwright test -c e2e                     own stack on 55321…, apps on 5173/5174
 *   E2E_PORTAL_PORT=… E2E_KIOSK_PORT=… STACK_GATEWAY_PORT=… npx playwright test -c e2e
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  throw new Error(
    `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH.`,
  );
}

const stack = browserStackSettings();
const viteEnv = {
  VITE_SUPABASE_URL: stack.supabaseUrl,
  VITE_SUPABASE_ANON_KEY: stack.anonKey,
  // The kiosk opens the portal to impersonate a user, and the portal leads back to the kiosk.
  VITE_PORTAL_URL: appUrls.portal,
  VITE_KIOSK_URL: appUrls.kiosk,
  // Short links on the test stack's own gateway port, as its functions answer them.
  VITE_SHORT_URL_BASE: localShortUrlBase(stack.supabaseUrl),
  // The sale runs today, as for the test stack's billing function (promotions spec).
  VITE_SALE_CALENDAR: process.env.SALE_CALENDAR ?? TEST_STACK_ENV.SALE_CALENDAR!,
};

const devServer = (app: 'portal' | 'kiosk', readyPath: string) => ({
  command: `npx vite --port ${appPorts[app]} --strictPort`,
  cwd: `../${app}`,
  url: `${appUrls[app]}${readyPath}`,
  env: viteEnv,
  // A server already on this port would be talking to some other stack.
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Generous: react-admin's first render takes seconds of CPU, and CI machines are shared.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: appUrls.portal,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [devServer('portal', '/app'), devServer('kiosk', '/')],
});
