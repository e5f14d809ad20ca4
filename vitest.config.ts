import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Two kinds of suites: `unit` needs nothing running; `stack` runs against a real local stack
 * (database, PostgREST, auth, storage, functions) started once by its global setup.
 */
const stackSuite = {
  environment: 'node' as const,
  globalSetup: ['./supabase/local/test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/src/**/*.test.ts',
            'supabase/local/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'ui',
          include: ['portal/src/**/*.test.{ts,tsx}', 'kiosk/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./portal/vitest.setup.ts'],
          css: false,
          // Run through Vite, so that its `#swagger-ui` import takes the browser build on the
          // portal's React, as the portal's bundle does (Node's would bring its own React 18).
          server: { deps: { inline: ['swagger-ui-react'] } },
        },
        // Prefer packages' ES builds as Vite does in the browser: ra-supabase's CommonJS build
        // would load a second copy of react-admin's contexts (no QueryClient found, and so on).
        resolve: {
          mainFields: ['module', 'main'],
          alias: [
            {
              find: /^#swagger-ui$/,
              replacement: fileURLToPath(
                new URL(
                  './node_modules/swagger-ui-react/swagger-ui-es-bundle-core.js',
                  import.meta.url,
                ),
              ),
            },
          ],
        },
      },
      {
        test: {
          name: 'stack',
          include: ['supabase/local/test/**/*.test.ts', 'supabase/tests/**/*.test.ts'],
          ...stackSuite,
          // Suites share one database; files run in parallel but must not assume an empty one.
          fileParallelism: true,
        },
      },
    ],
  },
});
