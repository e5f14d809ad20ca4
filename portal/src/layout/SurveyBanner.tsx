import { Box, Button, Group, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { useAuth } from '../auth/AuthContext.ts';
import { useOnboardingSurveyQuery, type SurveySummary } from '../data/onboarding-survey-query.ts';
import { useDismissSurveyMutation } from '../data/profile-survey-dismiss-mutation.ts';
import { sessionStorageKey } from '../features/impersonation/impersonationClient.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import { useAppState } from '../state/appState.ts';
import { useLocation } from 'react-router-dom';
import { useSessionFlag } from '../state/sessionFlag.ts';
import { offersSurvey } from './surveyPlacement.ts';
import { fetchesSurvey, useOpensAfter } from './surveyRules.ts';

// Not on most page views (only until answered or dismissed): its code comes with the offer, well
// within the 500 ms before the survey opens by itself.
const OnboardingSurveyModal = lazy(() =>
  import('./OnboardingSurveyModal.tsx').then((module) => ({
    default: module.OnboardingSurveyModal,
  })),
);

/** Stands in for the survey while it loads: a title of a usual length. */
const PLACEHOLDER_SURVEY: SurveySummary = {
  id: '',
  title: 'Tell us about you',
  questionCount: 5,
};

interface SurveyOfferProps {
  survey: SurveySummary;
  onTake: () => void;
  onSkip: () => void;
  onDismiss: () => void;
  dismissing: boolean;
}

function SurveyOffer({ survey, onTake, onSkip, onDismiss, dismissing }: SurveyOfferProps) {
  return (
    <Box component="aside" aria-label="Survey" bg="indigo.0" px="md" py="sm">
      <Group justify="space-between" gap="sm" maw="80rem" mx="auto">
        <Text size="sm">
          <strong>{survey.title}</strong>: {survey.questionCount} short questions about how you use
          short links help us build what you need.
        </Text>
        <Group gap="xs">
          <Button size="xs" onClick={onTake}>
            Take the survey
          </Button>
          <Button size="xs" variant="default" onClick={onSkip}>
            Not now
          </Button>
          <Button size="xs" variant="subtle" loading={dismissing} onClick={onDismiss}>
            Don&apos;t ask again
          </Button>
        </Group>
      </Group>
    </Box>
  );
}

const nothing = () => undefined;

/**
 * The optional survey banner, on the pages where it is relevant (surveyPlacement), while the
 * onboarding survey is on for the user (not past due, not turned off) and a survey is running.
 * "Not now" skips it for the rest of the browsing session (session storage): the offer comes
 * back in a later session, where "Don't ask again" turns it off for good.
 */
export function SurveyBanner() {
  const { status } = useAuth();
  const { viewer, surveyEnabled } = useAppState();
  const { pathname } = useLocation();
  const [skipped, setSkipped] = useSessionFlag(STORAGE_KEYS.surveySkipped, false);
  const relevant = offersSurvey(pathname);
  const query = useOnboardingSurveyQuery(
    relevant &&
      fetchesSurvey({
        signedIn: viewer != null,
        pastDue: viewer?.pastDue ?? false,
        surveyEnabled: viewer?.surveyEnabled ?? false,
        skipped,
      }),
  );
  const dismiss = useDismissSurveyMutation();
  const [taking, setTaking] = useState(false);
  const [closedNow, setClosedNow] = useState(false);
  // app-shell 4: the survey opens by itself 500 ms after it has loaded.
  const autoOpened = useOpensAfter(status === 'signedIn' && query.data != null);
  const supabase = useSupabase();
  // While the stored session is read, a stored one says who will most likely be signed in.
  const signedIn =
    status === 'signedIn' ||
    (status === 'loading' && window.localStorage.getItem(sessionStorageKey(supabase)) != null);
  const offered = signedIn && !skipped && relevant;
  // Until the profile and the survey are known, the banner's room is kept (the usual answer is
  // yes: the survey is on by default), so the page under it does not drop when it shows.
  if (offered && (viewer == null || (surveyEnabled && query.isPending))) {
    // Hidden from sight, assistive technology and the keyboard: room only.
    return (
      <div aria-hidden="true" inert style={{ visibility: 'hidden' }} data-survey-placeholder="">
        <SurveyOffer
          survey={PLACEHOLDER_SURVEY}
          onTake={nothing}
          onSkip={nothing}
          onDismiss={nothing}
          dismissing={false}
        />
      </div>
    );
  }
  const survey = query.data;
  if (status !== 'signedIn' || !offered || !surveyEnabled || !survey) return null;
  return (
    <>
      <SurveyOffer
        survey={survey}
        onTake={() => setTaking(true)}
        onSkip={() => setSkipped(true)}
        onDismiss={() => dismiss.mutate()}
        dismissing={dismiss.isPending}
      />
      <Suspense fallback={null}>
        <OnboardingSurveyModal
          survey={survey}
          opened={taking || (autoOpened && !closedNow)}
          onClose={() => {
            setTaking(false);
            setClosedNow(true);
          }}
          onSkip={() => setSkipped(true)}
        />
      </Suspense>
    </>
  );
}
