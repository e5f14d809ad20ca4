import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders `children` from the first time `active` is true on, and never before: code that only
 * an opened drawer or menu needs is fetched when it is first opened, not with the first page.
 * It stays mounted afterwards so closing can animate.
 */
export function LazyOnFirstUse({ active, children }: { active: boolean; children: ReactNode }) {
  const [used, setUsed] = useState(active);
  if (active && !used) setUsed(true);
  if (!used && !active) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
