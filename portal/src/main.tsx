import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ConfigErrorScreen } from './components/ConfigErrorScreen.tsx';
import { prefetchPartsOnFirstMove } from './components/lazyParts.ts';
import { readPortalConfig } from './lib/config.ts';
import { createQueryClient } from './lib/queryClient.ts';
import { envCheck } from './lib/env.ts';
import { createPortalServices, type PortalServices } from './lib/services.ts';
import { startFirstRequests } from './routes/firstRequests.ts';
import { prefetchDataAt, preloadPageAt } from './routes/routeTable.tsx';
import { takeFlashFromUrl } from './state/flash.ts';
import { themeProps } from './theme.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element.');

function start(): { services: PortalServices } | { problems: string[] } {
  if (!envCheck.ok) return { problems: envCheck.problems };
  try {
    const config = readPortalConfig(import.meta.env, envCheck.env.supabaseUrl);
    const services = createPortalServices({ env: envCheck.env, config });
    // An auth redirect's error is said once, then taken out of the address.
    const { flash, cleanUrl } = takeFlashFromUrl(new URL(window.location.href));
    if (flash) {
      services.flash.push(flash);
      window.history.replaceState(window.history.state, '', cleanUrl);
    }
    return { services };
  } catch (error) {
    return { problems: [error instanceof Error ? error.message : String(error)] };
  }
}

const started = start();
const queryClient = createQueryClient();
if ('services' in started) {
  const { pathname, search } = window.location;
  preloadPageAt(pathname);
  // In a task of their own, not at the end of the scripts' evaluation (already the longest).
  setTimeout(() => {
    void startFirstRequests(
      queryClient,
      started.services.supabase,
      { pathname, search },
      (context) => prefetchDataAt(pathname, context),
    );
  });
  prefetchPartsOnFirstMove();
}

const root = createRoot(container);
// A transition: React renders the first screen in slices that let the browser paint and answer
// input between them, instead of one long task of the whole shell and page.
startTransition(() => {
  root.render(
    <StrictMode>
      {'services' in started ? (
        <App services={started.services} queryClient={queryClient} />
      ) : (
        <MantineProvider {...themeProps}>
          <ConfigErrorScreen app="The Shortlane portal" problems={started.problems} />
        </MantineProvider>
      )}
    </StrictMode>,
  );
});
