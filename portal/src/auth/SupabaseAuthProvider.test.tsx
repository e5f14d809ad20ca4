import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../test/backend.ts';
import { createTestServices, sessionBody, startSession } from '../test/services.ts';
import { useAuth } from './AuthContext.ts';
import type { AuthRedirect } from './authRedirect.ts';
import { SupabaseAuthProvider } from './SupabaseAuthProvider.tsx';

const ADA = { id: '0a5e5a8e-0000-4000-8000-0000000000ad', email: 'ada@example.com' };

function Probe() {
  const auth = useAuth();
  return (
    <>
      <p>
        {auth.status} recovery={String(auth.passwordRecovery)}
      </p>
      <button onClick={() => void auth.signIn({ email: ADA.email, password: 'secret1' })}>
        Sign in
      </button>
    </>
  );
}

/** A storage of its own, so what the provider writes is seen here alone. */
function memoryStorage() {
  const items = new Map<string, string>();
  return { setItem: (key: string, value: string) => void items.set(key, value), items };
}

async function renderProvider(landing: AuthRedirect | null, signedIn: boolean) {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  if (signedIn) await startSession(testServices, backend, ADA);
  const storage = memoryStorage();
  render(
    <SupabaseAuthProvider
      client={testServices.services.supabase}
      landing={landing}
      storage={storage}
    >
      <Probe />
    </SupabaseAuthProvider>,
  );
  return { backend, storage };
}

describe('SupabaseAuthProvider', () => {
  it('knows a session brought by a recovery link for what it is, and tells the other tabs', async () => {
    const { storage } = await renderProvider({ type: 'recovery' }, true);
    expect(await screen.findByText('signedIn recovery=true')).toBeInTheDocument();
    expect(storage.items.get('stateStatus')).toBe('true');
  });

  it('treats a stored session as an ordinary one, and announces nothing', async () => {
    const { storage } = await renderProvider(null, true);
    expect(await screen.findByText('signedIn recovery=false')).toBeInTheDocument();
    expect(storage.items.has('stateStatus')).toBe(false);
  });

  it('announces a login to the other tabs', async () => {
    const { backend, storage } = await renderProvider(null, false);
    backend.on('POST', '/auth/v1/token', () => json(sessionBody(ADA)));
    expect(await screen.findByText('guest recovery=false')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(storage.items.get('stateStatus')).toBe('true'));
    expect(await screen.findByText('signedIn recovery=false')).toBeInTheDocument();
  });
});
