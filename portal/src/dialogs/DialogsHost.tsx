import { lazy, Suspense, useSyncExternalStore } from 'react';
import { useDialogs } from '../lib/servicesContext.ts';

// The modals' code loads when the first one opens, not with the first page.
const DialogStack = lazy(() => import('./DialogStack.tsx'));

/** Renders the dialogs open in the DialogStore. */
export function DialogsHost() {
  const store = useDialogs();
  const dialogs = useSyncExternalStore(store.subscribe, store.getSnapshot);
  if (dialogs.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <DialogStack dialogs={dialogs} store={store} />
    </Suspense>
  );
}
