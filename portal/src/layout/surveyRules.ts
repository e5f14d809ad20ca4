import { STORAGE_KEYS, SURVEY_OPEN_DELAY_MS } from '@shortlane/shared/constants.ts';
import { startTransition, useEffect, useState } from 'react';
import { useOnboardingSurveyQuery } from '../data/onboarding-survey-query.ts';
import { useAppState } from '../state/appState.ts';
import { useSessionFlag } from '../state/sessionFlag.ts';
import { offersSurvey } from './surveyPlacement.ts';

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
    // A transition: the dialog renders in slices the browser can answer input between.
    const timer = window.setTimeout(() => startTransition(() => setOpen(true)), delayMs);
    // Not ready any more: the next time it is, the wait starts again.
    return () => {
      window.clearTimeout(timer);
      setOpen(false);
    };
  }, [ready, delayMs]);
  return ready && open;
}

/**
 * True while the onboarding survey is loading or about to open on this page, so other modals
 * (the promotions) wait instead of piling up over it. Shares SurveyBanner's query.
 */
export function useSurveyPending(pathname: string): boolean {
  const { viewer } = useAppState();
  const [skipped] = useSessionFlag(STORAGE_KEYS.surveySkipped, false);
  const fetches =
    offersSurvey(pathname) &&
    fetchesSurvey({
      signedIn: viewer != null,
      pastDue: viewer?.pastDue ?? false,
      surveyEnabled: viewer?.surveyEnabled ?? false,
      skipped,
    });
  const query = useOnboardingSurveyQuery(fetches);
  return fetches && (query.isPending || query.data != null);
}
