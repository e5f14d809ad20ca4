import { useLayoutEffect } from 'react';

/**
 * Sets the document title ("Pricing · Shortlane"), which screen readers announce on arrival.
 * A layout effect, so the title changes in the same commit as the page: a passive effect can run
 * after the new heading is already on screen, leaving the old title there meanwhile.
 */
export function usePageTitle(title: string, productName = 'Shortlane') {
  useLayoutEffect(() => {
    document.title = title ? `${title} · ${productName}` : productName;
  }, [title, productName]);
}
