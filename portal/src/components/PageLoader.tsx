import { LoadingFrame } from './LoadingFrame.tsx';

/** Shown while a page's code or the session loads. */
export function PageLoader() {
  return <LoadingFrame label="Loading…" minHeight="60vh" />;
}
