import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders `children` from the first time `active` is true on, and never before: code that only
 * an opened drawer or menu needs is fetched when it is first opened, not with the first page.
 * It stays mounted afterwards so closing can animate. Until the code is there `fallback` shows:
 * required, because a dialog that opens blank looks broken (a LoadingFrame in the dialog's
 * frame, or the frame itself when the frame is part of the lazy code).
 */
export function LazyOnFirstUse({
  active,
  fallback,
  children,
}: {
  active: boolean;
  fallback: ReactNode;
  children: ReactNode;
}) {
  const [used, setUsed] = useState(active);
  if (active && !used) setUsed(true);
  if (!used && !active) return null;
  return <Suspense fallback={fallback}>{children}</Suspense>;
}
