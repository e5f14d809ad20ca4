import { useLocalStorage } from '@mantine/hooks';

/** A boolean kept in local storage, shared by every component that reads it (and other tabs). */
export function useStoredFlag(key: string, defaultValue: boolean) {
  return useLocalStorage<boolean>({ key, defaultValue, getInitialValueInEffect: false });
}
