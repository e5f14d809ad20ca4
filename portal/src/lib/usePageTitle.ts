import { useEffect } from 'react';

/** Sets the document title ("Pricing · Shortlane"), which screen readers announce on arrival. */
export function usePageTitle(title: string, productName = 'Shortlane') {
  useEffect(() => {
    document.title = title ? `${title} · ${productName}` : productName;
  }, [title, productName]);
}
