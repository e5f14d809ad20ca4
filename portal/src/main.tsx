import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ConfigErrorScreen } from './components/ConfigErrorScreen.tsx';
import { envCheck } from './lib/env.ts';
import { createSupabaseClient } from './lib/supabase.ts';
import { themeProps } from './theme.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element.');

createRoot(container).render(
  <StrictMode>
    {envCheck.ok ? (
      <App supabase={createSupabaseClient(envCheck.env)} />
    ) : (
      <MantineProvider {...themeProps}>
        <ConfigErrorScreen app="The Shortlane portal" problems={envCheck.problems} />
      </MantineProvider>
    )}
  </StrictMode>,
);
