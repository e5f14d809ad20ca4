import { lazy, Suspense, useSyncExternalStore } from 'react';
import { LoadingModal } from '../components/LoadingDialog.tsx';
import { useDialogs } from '../lib/servicesContext.ts';
import { dialogTitle } from './dialogStore.ts';

// The modals' code loads when the first one opens, not with the first page.
const DialogStack = lazy(() => import('./DialogStack.tsx'));

/** Renders the dialogs open in the DialogStore. */
export function DialogsHost() {
  const store = useDialogs();
  const dialogs = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const top = dialogs.at(-1);
  if (top == null) return null;
  return (
    <Suspense
      fallback={
        // The newest dialog's frame with a loader, so the dialog shows (and closes) at once.
        <LoadingModal
          opened
          centered
          title={dialogTitle(top)}
          onClose={() => store.close(top.id)}
          loadingLabel="Loading the dialog"
          minHeight={80}
        />
      }
    >
      <DialogStack dialogs={dialogs} store={store} />
    </Suspense>
  );
}
