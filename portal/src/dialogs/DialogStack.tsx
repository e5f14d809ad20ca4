import type { Dialog, DialogStore } from './dialogStore.ts';
import { AccessibilityModal } from './AccessibilityModal.tsx';
import { ConfirmModal } from './ConfirmModal.tsx';
import { ConfirmPasswordModal } from './ConfirmPasswordModal.tsx';
import { ErrorModal } from './ErrorModal.tsx';
import { PrivacyOptOutModal } from './PrivacyOptOutModal.tsx';

function DialogView({ dialog, store }: { dialog: Dialog; store: DialogStore }) {
  const close = (result?: boolean) => store.close(dialog.id, result);
  switch (dialog.kind) {
    case 'error':
      return <ErrorModal {...dialog.props} onClose={() => close()} />;
    case 'confirm':
      return <ConfirmModal {...dialog.props} onClose={close} />;
    case 'confirmPassword':
      return (
        <ConfirmPasswordModal check={dialog.check} withCode={dialog.withCode} onClose={close} />
      );
    case 'accessibility':
      return <AccessibilityModal onClose={() => close()} />;
    case 'privacyOptOut':
      return <PrivacyOptOutModal onClose={() => close()} />;
  }
}

/** Every open dialog, the newest on top. */
export default function DialogStack({
  dialogs,
  store,
}: {
  dialogs: readonly Dialog[];
  store: DialogStore;
}) {
  return dialogs.map((dialog) => <DialogView key={dialog.id} dialog={dialog} store={store} />);
}
