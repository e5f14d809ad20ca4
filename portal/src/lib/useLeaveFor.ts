import { useEffect, useRef } from 'react';
import { useServices } from './servicesContext.ts';

/**
 * Leaves the portal for `url` once the page is shown (nothing when `url` is null). Once per
 * address: effects may run twice for one page (StrictMode in development), and a second
 * `location.replace` aborts the navigation the first one started.
 */
export function useLeaveFor(url: string | null | undefined): void {
  const { leave } = useServices();
  const left = useRef<string | null>(null);
  useEffect(() => {
    if (url == null || left.current === url) return;
    left.current = url;
    leave(url);
  }, [leave, url]);
}
