import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ConfigErrorScreen } from './ConfigErrorScreen.tsx';
import { envCheck } from './lib/env.ts';
import { createAuthProvider } from './providers/authProvider.ts';
import { createDataProvider } from './providers/dataProvider.ts';
import { createSupabaseClient } from './providers/supabase.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element.');
const root = createRoot(container);

if (envCheck.ok) {
  const client = createSupabaseClient(envCheck.env);
  root.render(
    <StrictMode>
      <App
        authProvider={createAuthProvider(client)}
        dataProvider={createDataProvider({ env: envCheck.env, client })}
        config={{ portalUrl: envCheck.env.portalUrl }}
      />
    </StrictMode>,
  );
} else {
  root.render(<ConfigErrorScreen problems={envCheck.problems} />);
}
