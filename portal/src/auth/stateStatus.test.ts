import { describe, expect, it } from 'vitest';
import { announceSignedIn, announceSignedOut, stateStatusChange } from './stateStatus.ts';

describe('stateStatus', () => {
  it("writes the spec's key with true on login and false on logout", () => {
    announceSignedIn(window.localStorage);
    expect(window.localStorage.getItem('stateStatus')).toBe('true');
    announceSignedOut(window.localStorage);
    expect(window.localStorage.getItem('stateStatus')).toBe('false');
  });

  it("reads another tab's change of that key, and only of that key in localStorage", () => {
    const local = window.localStorage;
    const change = (key: string, newValue: string | null, storageArea: Storage = local) =>
      stateStatusChange({ key, newValue, storageArea }, local);
    expect(change('stateStatus', 'false')).toBe('signedOut');
    expect(change('stateStatus', 'true')).toBe('signedIn');
    expect(change('stateStatus', null)).toBeNull();
    expect(change('cookiesAccepted', 'true')).toBeNull();
    expect(change('stateStatus', 'false', window.sessionStorage)).toBeNull();
  });
});
