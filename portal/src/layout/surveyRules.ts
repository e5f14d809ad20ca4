import { SURVEY_OPEN_DELAY_MS } from '@shortlane/shared/constants.ts';
import { useEffect, useState } from 'react';

export interface SurveyAudience {
  signedIn: boolean;
  pastDue: boolean;
  /** The profile's switch (off once answered or turned off for good). */
  surveyEnabled: boolean;
  /** The browser's skip flag ("Not now"). */
  skipped: boolean;
}

/** app-shell 4: the survey is fetched unless the user is logged out, past due or skipped it. */
export function fetchesSurvey(audience: SurveyAudience): boolean {
  return audience.signedIn && !audience.pastDue && audience.surveyEnabled && !audience.skipped;
}

/** True from `delayMs` after `ready` turned true (app-shell 4: the survey opens 500 ms after). */
export function useOpensAfter(ready: boolean, delayMs: number = SURVEY_OPEN_DELAY_MS): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!ready) return undefined;
    const timer = window.setTimeout(() => setOpen(true), delayMs);
    // Not ready any more: the next time it is, the wait starts again.
    return () => {
      window.clearTimeout(timer);
      setOpen(false);
    };
  }, [ready, delayMs]);
  return ready && open;
}
