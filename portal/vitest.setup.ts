/**
 * jsdom set-up for the `ui` project (portal and kiosk): jest-dom matchers, and the browser APIs
 * Mantine and MUI call that jsdom lacks. The stubs answer like a desktop browser with no media
 * features and no layout, which is what jsdom models.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// Lazy pages and chained queries take more than the default second on a busy machine.
configure({ asyncUtilTimeout: 4_000 });

// The shell's promotion modals (the free-trial offer, the sale) would cover whatever a test looks
// at, so they start closed, as in the e2e specs; Promotions.test.tsx clears storage to see them.
beforeEach(() => {
  window.localStorage.setItem('trialPromotionClosedAt', new Date().toISOString());
  window.localStorage.setItem('salePromotionClosed', 'true');
});

afterEach(() => {
  cleanup();
  // Stored flags and cookies (cookie notice, coupon, privacy choice) must not leak between tests.
  window.localStorage.clear();
  window.sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

class NoLayoutResizeObserver implements ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoLayoutResizeObserver;

// Mantine's Combobox and ScrollArea scroll elements into view; jsdom does no layout.
window.HTMLElement.prototype.scrollIntoView ??= () => {};

// Mantine's autosize textarea (the description field) listens for web fonts loading; jsdom has
// no FontFaceSet, and no fonts load in it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
}
