import { Button, type ButtonProps } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Confirm, useNotify, useRefresh } from 'react-admin';
import type { KioskNotice } from '../i18n/messages.ts';

/** The server's own words on a failure, through the i18n provider like every notice. */
export function notifyFailure(notify: ReturnType<typeof useNotify>, error: unknown): void {
  notify('kiosk.notice.failed', {
    type: 'error',
    messageArgs: { message: error instanceof Error ? error.message : String(error) },
  });
}

interface ActionButtonProps {
  label: string;
  icon?: ReactNode;
  /** The question a confirmation dialog asks first, if the action needs one. */
  confirm?: { title: string; content: ReactNode };
  /** The action; the notice it resolves with (if any) is shown as a success. */
  run: () => Promise<KioskNotice | void>;
  color?: ButtonProps['color'];
  disabled?: boolean;
}

/**
 * A staff action outside create/edit (ban, reset 2FA, publish…): confirm, run, tell the outcome
 * (the server's message on failure), refresh the page's data.
 */
export function ActionButton({ label, icon, confirm, run, color, disabled }: ActionButtonProps) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  const act = async () => {
    setAsking(false);
    setBusy(true);
    try {
      const done = await run();
      if (done) notify(done.message, { type: 'success', messageArgs: done.args });
      refresh();
    } catch (error) {
      notifyFailure(notify, error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        color={color}
        startIcon={icon}
        disabled={disabled || busy}
        onClick={() => (confirm ? setAsking(true) : void act())}
      >
        {label}
      </Button>
      {confirm && (
        <Confirm
          isOpen={asking}
          title={confirm.title}
          content={confirm.content}
          onConfirm={() => void act()}
          onClose={() => setAsking(false)}
        />
      )}
    </>
  );
}
