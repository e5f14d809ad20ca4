import { useEffect, useRef } from 'react';

/**
 * A ref whose element takes the focus when it first renders: for what replaces a form the user
 * was in (a result, a one-time secret). Without it the focus falls to the page's body, where a
 * screen reader hears nothing new and Escape no longer reaches the dialog around it. The
 * element needs `tabIndex={-1}` to be focusable without joining the tab order.
 */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}
