import { Box, Button, Group, Text } from '@mantine/core';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { useOnboardingSurveyQuery } from '../data/onboarding-survey-query.ts';
import { useDismissSurveyMutation } from '../data/profile-survey-dismiss-mutation.ts';
import { useAppState } from '../state/appState.ts';
import { useStoredFlag } from '../state/storedFlag.ts';

/**
 * The optional survey banner: while the onboarding survey is on for the user (not past due,
 * not skipped in this browser, not turned off) and a survey is running.
 */
export function SurveyBanner() {
  const { surveyEnabled } = useAppState();
  const [skipped, setSkipped] = useStoredFlag(STORAGE_KEYS.surveySkipped, false);
  const survey = useOnboardingSurveyQuery(surveyEnabled && !skipped).data;
  const dismiss = useDismissSurveyMutation();
  if (!surveyEnabled || skipped || !survey) return null;
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
