import { useSessionStorage } from '@mantine/hooks';

/**
 * A boolean kept in session storage: it lasts while the tab does (reloads included) and is
 * forgotten with the browsing session, unlike useStoredFlag's local storage.
 */
export function useSessionFlag(key: string, defaultValue: boolean) {
  return useSessionStorage<boolean>({ key, defaultValue, getInitialValueInEffect: false });
}
