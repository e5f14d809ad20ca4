import { Box, Button, Group, Text } from '@mantine/core';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { useOnboardingSurveyQuery } from '../data/onboarding-survey-query.ts';
import { useDismissSurveyMutation } from '../data/profile-survey-dismiss-mutation.ts';
import { useAppState } from '../state/appState.ts';
import { useLocation } from 'react-router-dom';
import { useSessionFlag } from '../state/sessionFlag.ts';
import { offersSurvey } from './surveyPlacement.ts';

/**
 * The optional survey banner, on the pages where it is relevant (surveyPlacement), while the
 * onboarding survey is on for the user (not past due, not turned off) and a survey is running.
 * "Not now" skips it for the rest of the browsing session (session storage): the offer comes
 * back in a later session, where "Don't ask again" turns it off for good.
 */
export function SurveyBanner() {
  const { surveyEnabled } = useAppState();
  const { pathname } = useLocation();
  const [skipped, setSkipped] = useSessionFlag(STORAGE_KEYS.surveySkipped, false);
  const relevant = offersSurvey(pathname);
  const survey = useOnboardingSurveyQuery(surveyEnabled && !skipped && relevant).data;
  const dismiss = useDismissSurveyMutation();
  if (!surveyEnabled || skipped || !relevant || !survey) return null;
  return (
    <Box component="aside" aria-label="Survey" bg="indigo.0" px="md" py="sm">
      <Group justify="space-between" gap="sm" maw="80rem" mx="auto">
        <Text size="sm">
          <strong>{survey.title}</strong>: {survey.questionCount} short questions about how you use
          short links help us build what you need.
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setSkipped(true)}>
            Not now
          </Button>
          <Button
            size="xs"
            variant="subtle"
            loading={dismiss.isPending}
            onClick={() => dismiss.mutate()}
          >
            Don&apos;t ask again
          </Button>
        </Group>
      </Group>
    </Box>
  );
}
