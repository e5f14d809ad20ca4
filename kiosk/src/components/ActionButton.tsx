import { Button, type ButtonProps } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Confirm, useNotify, useRefresh } from 'react-admin';

interface ActionButtonProps {
  label: string;
  icon?: ReactNode;
  /** The question a confirmation dialog asks first, if the action needs one. */
  confirm?: { title: string; content: ReactNode };
  /** The action; its resolved text (if any) is shown as a success notice. */
  run: () => Promise<string | void>;
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
      if (done) notify(done, { type: 'success' });
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
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
