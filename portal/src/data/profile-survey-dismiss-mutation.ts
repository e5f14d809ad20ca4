import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import { profileKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** Turns the onboarding survey off for the user (the profile's is_survey_enabled). */
export function useDismissSurveyMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async () => {
      if (userId == null) throw new Error('Only a signed-in user has a survey to dismiss.');
      unwrap(
        await supabase
          .from('profiles')
          .update({ is_survey_enabled: false })
          .eq('id', userId)
          .select('id')
          .single(),
      );
    },
    onSettled: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: profileKeys.detail(userId) }),
  });
}
