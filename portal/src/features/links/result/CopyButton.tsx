import { Button } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { useState } from 'react';
import { useNotify } from '../../../lib/servicesContext.ts';

/**
 * Copies `value` to the clipboard and says whether that worked (app-shell 8). Once copied it
 * reads "Copied" (the created alias's client-side copied flag of link-creation 3). `label` names
 * the button when the value itself should not be read out (a secret).
 */
export function CopyButton({ value, label }: { value: string; label?: string }) {
  const notify = useNotify();
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    try {
      // Missing outside secure contexts: that throws here too, and is reported as a failure.
      await navigator.clipboard.writeText(value);
      setCopied(true);
      notify({
        message: MESSAGES.copySucceeded,
        tone: 'success',
        durationMs: NOTICE_DURATION_MS.default,
      });
    } catch {
      notify({
        message: MESSAGES.copyFailed,
        tone: 'error',
        durationMs: NOTICE_DURATION_MS.default,
      });
    }
  };

  return (
    <Button
      variant={copied ? 'filled' : 'default'}
      onClick={copy}
      aria-label={label ?? `Copy ${value}`}
    >
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}
