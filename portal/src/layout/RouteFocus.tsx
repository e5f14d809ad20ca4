import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

export const MAIN_ID = 'main';

/**
 * After a client-side navigation, focus moves to the new page's main region, as a page load
 * would reset it: keyboard and screen-reader users start at the new content, not on the link
 * they used. The first load keeps the browser's own focus.
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    document.getElementById(MAIN_ID)?.focus({ preventScroll: false });
  }, [pathname]);
  return null;
}
