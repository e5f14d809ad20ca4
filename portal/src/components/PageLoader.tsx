import { LoadingFrame } from './LoadingFrame.tsx';

/**
 * Shown while a page's code or the session loads. It takes a screen: most pages are longer than
 * one, and a shorter frame let the footer show under the spinner, then jump away as the page
 * arrived (a layout shift on every first visit).
 */
export function PageLoader() {
  return <LoadingFrame label="Loading…" minHeight="100vh" />;
}
