import { useLocalStorage, useSessionStorage } from '@mantine/hooks';
import { useCallback } from 'react';

/**
 * When the user last closed a promotion or reminder (an ISO instant), kept in the browser
 * (app-shell 4): local storage outlives the session, session storage lasts while the tab does.
 */
export function useClosureTime(key: string, storage: 'local' | 'session') {
  const options = {
    key,
    defaultValue: null,
    getInitialValueInEffect: false,
    // Plain text in storage: the instant is the value.
    serialize: (value: string | null) => value ?? '',
    deserialize: (value: string | undefined) => (value ? value : null),
  };
  // Both hooks are called so the hook order never depends on `storage`.
  const local = useLocalStorage<string | null>(options);
  const session = useSessionStorage<string | null>(options);
  const [closedAt, setClosedAt] = storage === 'local' ? local : session;
  const close = useCallback(() => setClosedAt(new Date().toISOString()), [setClosedAt]);
  return [closedAt, close] as const;
}
