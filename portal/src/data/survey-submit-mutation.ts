import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import { profileKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** An answer: the chosen choices, or the text of a text question. */
export type SurveyAnswer = string[] | string;

/**
 * Sends the whole survey (submit_onboarding_survey checks and stores every answer, and turns
 * the survey off in the profile, so it does not come back).
 */
export function useSubmitSurveyMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (input: { surveyId: string; answers: Record<string, SurveyAnswer> }) =>
      unwrap(
        await supabase.rpc('submit_onboarding_survey', {
          p_survey_id: input.surveyId,
          p_answers: input.answers,
        }),
      ),
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: profileKeys.detail(userId) }),
  });
}
