import { describe, expect, it, vi } from 'vitest';
import {
  openImpersonation,
  portalImpersonationUrl,
  type ImpersonationStart,
} from './impersonation.ts';

const started: ImpersonationStart = {
  access_token: 'header.payload.signature',
  expires_at: 1_900_000_000,
  impersonation_id: 7,
  user: { id: 'u1', email: 'ada@example.com' },
};

function fakeBrowser(tabOpens: boolean) {
  const tab = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
  const browser = {
    open: vi.fn(() => (tabOpens ? (tab as unknown as Window) : null)),
    location: { assign: vi.fn() } as unknown as Location,
  };
  return { tab, browser };
}

describe('portalImpersonationUrl', () => {
  it('hands the token to the portal in the fragment, never in the query', () => {
    expect(portalImpersonationUrl('http://localhost:5173', started)).toBe(
      'http://localhost:5173/app/kiosk/user/impersonate#impersonation_token=header.payload.signature',
    );
  });
});

describe('openImpersonation', () => {
  it('opens the tab at once, then points it at the portal, cut off from the kiosk', async () => {
    const { tab, browser } = fakeBrowser(true);
    let resolveStart!: (value: ImpersonationStart) => void;
    const opening = openImpersonation(
      'http://portal.test',
      () => new Promise((resolve) => (resolveStart = resolve)),
      browser,
    );
    expect(browser.open).toHaveBeenCalledWith('', '_blank');
    expect(tab.location.href).toBe('');
    resolveStart(started);
    await expect(opening).resolves.toBe(started);
    expect(tab.opener).toBeNull();
    expect(tab.location.href).toBe(
      'http://portal.test/app/kiosk/user/impersonate#impersonation_token=header.payload.signature',
    );
  });

  it('goes in this tab when pop-ups are blocked', async () => {
    const { browser } = fakeBrowser(false);
    await openImpersonation('http://portal.test', async () => started, browser);
    expect(browser.location.assign).toHaveBeenCalledWith(
      'http://portal.test/app/kiosk/user/impersonate#impersonation_token=header.payload.signature',
    );
  });

  it('closes the empty tab and reports the refusal when the start fails', async () => {
    const { tab, browser } = fakeBrowser(true);
    await expect(
      openImpersonation(
        'http://portal.test',
        () => Promise.reject(new Error('Staff members cannot be impersonated')),
        browser,
      ),
    ).rejects.toThrow('Staff members cannot be impersonated');
    expect(tab.close).toHaveBeenCalled();
  });
});
