import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useEffect, useEffectEvent, useState } from 'react';
import { useNotify } from '../lib/servicesContext.ts';

export interface LazyParts<Parts> {
  /** Starts fetching the parts (once; again after a failure). */
  load(): Promise<Parts>;
  /**
   * The parts once `wanted` has been true and they are fetched; undefined before. A failed
   * fetch (a dropped connection, a release replaced meanwhile) says so in a notice and calls
   * `onFailed`, so that what wanted them can be asked for again.
   */
  useParts(wanted: boolean, onFailed?: () => void): Parts | undefined;
}

/**
 * Mantine components that only an opened overlay needs, kept out of the first page's
 * JavaScript: `fetch` is a dynamic import of a module that re-exports them (overlay-parts.ts,
 * dialog-parts.ts), and components built on them wait for `useParts`.
 */
export function lazyParts<Parts>(fetch: () => Promise<Parts>, what: string): LazyParts<Parts> {
  let loading: Promise<Parts> | undefined;
  let loaded: Parts | undefined;
  const load = () =>
    (loading ??= fetch().then(
      (parts) => (loaded = parts),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));

  function useParts(wanted: boolean, onFailed?: () => void): Parts | undefined {
    const notify = useNotify();
    const [parts, setParts] = useState(loaded);
    const fetchFailed = useEffectEvent(() => {
      notify({
        message: `Could not load ${what}. Check your connection and try again.`,
        durationMs: NOTICE_DURATION_MS.default,
      });
      onFailed?.();
    });
    useEffect(() => {
      if (!wanted || parts) return;
      let current = true;
      load().then(
        (fetched) => current && setParts(fetched),
        () => current && fetchFailed(),
      );
      return () => {
        current = false;
      };
    }, [wanted, parts]);
    return parts;
  }

  return { load, useParts };
}

/** Mantine's Menu and Popover (overlay-parts.ts): the navigation's menus and popovers. */
export const overlayParts = lazyParts(() => import('./overlay-parts.ts'), 'this menu');

/** Mantine's Modal and Drawer (dialog-parts.ts): every dialog and side panel. */
export const dialogParts = lazyParts(() => import('./dialog-parts.ts'), 'this dialog');

/**
 * Fetches both at the visitor's first move (a pointer, a key, a touch), so that the first press
 * of a menu or dialog finds them at hand; a press before that fetches them itself. Not when the
 * browser is idle after loading: a visitor who only reads, and a first load on a slow phone, pay
 * nothing for overlays they never open (Lighthouse counted their evaluation as blocking time).
 */
export function prefetchPartsOnFirstMove(): void {
  const moves = ['pointermove', 'pointerdown', 'keydown', 'touchstart'] as const;
  const prefetch = () => {
    for (const move of moves) window.removeEventListener(move, prefetch, true);
    void overlayParts.load().catch(() => {});
    void dialogParts.load().catch(() => {});
  };
  for (const move of moves)
    window.addEventListener(move, prefetch, { capture: true, passive: true });
}
