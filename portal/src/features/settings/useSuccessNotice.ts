import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useCallback } from 'react';
import { useNotify } from '../../lib/servicesContext.ts';

/** A success notice, shown for the spec's 5 s like every notice that is not a global error. */
export function useSuccessNotice(): (message: string) => void {
  const notify = useNotify();
  return useCallback(
    (message) => notify({ message, durationMs: NOTICE_DURATION_MS.default, tone: 'success' }),
    [notify],
  );
}
